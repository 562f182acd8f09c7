// DOCX, XLSX and PPTX files are zip archives of XML parts. Before a converter unpacks one, its central directory is
// read (nothing inflated) to refuse archives that would unpack to more than the agent worker can hold; when a library
// cannot read one, its error becomes a reason a user can read.
import { unzipSync, type Unzipped } from "fflate";
import { formatBytes } from "../../shared/text.ts";

/** The most an Office file may unpack to; real documents under the 50 MB upload limit stay far below it. */
export const MAX_UNPACKED_BYTES = 512 * 1024 * 1024;

// An OLE compound file: what Office writes for a password-protected (encrypted) document, and the pre-2007 formats.
const COMPOUND_FILE_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/**
 * The archive's parts for which `wanted(name)` is true (all of them without it), after checking that the whole
 * archive declares at most `MAX_UNPACKED_BYTES` unpacked. Throws an Error a user can read when the bytes are not a zip
 * archive or are too large unpacked.
 */
export function unzipOfficeFile(bytes: Uint8Array, wanted: (name: string) => boolean = () => true): Unzipped {
  let unpacked = 0;
  try {
    unzipSync(bytes, {
      filter: (file) => {
        unpacked += file.originalSize;
        return false;
      },
    });
  } catch {
    if (COMPOUND_FILE_SIGNATURE.every((byte, index) => bytes[index] === byte)) {
      throw new Error("the file is password-protected or saved in an old binary format, which cannot be read here");
    }
    throw new Error("the file is not a valid Office document (it is not a zip archive)");
  }
  if (unpacked > MAX_UNPACKED_BYTES) {
    throw new Error(
      `the file unpacks to ${formatBytes(unpacked)}, more than the ${formatBytes(MAX_UNPACKED_BYTES)} Fawn converts`,
    );
  }
  return unzipSync(bytes, { filter: (file) => wanted(file.name) });
}

/**
 * Why a library (mammoth, read-excel-file, and the zip and XML readers under them) could not read an Office file, as
 * an Error whose message a user can read: theirs span lines, name internals ("[xmldom error] …
 * @#[line:undefined,col:undefined]", "Bug : uncompressed data size mismatch") or end in a question.
 */
export function unreadableOfficeFile(error: unknown, kind: "document" | "workbook"): Error {
  const message = error instanceof Error ? error.message : String(error);
  let reason = `the ${kind} cannot be read`;
  if (/xmldom|parse error|Hierarchy request|tag|end of file|entity/i.test(message))
    reason = `the ${kind}'s XML is damaged`;
  else if (/zip|central directory|signature|size mismatch|crc/i.test(message)) {
    reason = "the file is not a valid Office document (its zip archive is damaged)";
  } else if (/not found|main document part|body element/i.test(message)) {
    reason = `the file is not a complete ${kind === "document" ? "Word document" : "Excel workbook"} (a part of it is missing)`;
  }
  return new Error(reason, { cause: error });
}
