// Saving a file the user asked for (a click on a temporary link to an object URL of its bytes), and freeing the URL
// of a picture shown (image-urls.ts).

/** Asks the browser to save `blob` as a file named `fileName`. */
export function download(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoking at once can cancel the download in some browsers; the URL is only needed until it has started.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * The bytes of a file to save: typed as plain bytes, so its object URL, even opened in a tab of its own, is saved by
 * the browser instead of shown as a page (an HTML or SVG file would otherwise run as a document of Fawn's origin).
 */
export function downloadBlob(bytes: Uint8Array): Blob {
  return new Blob([bytes as Uint8Array<ArrayBuffer>], { type: "application/octet-stream" });
}

/** Frees what image-urls.ts imageUrl made: an object URL is revoked, a data: URL needs nothing. */
export function releaseImageUrl(url: string): void {
  if (url.startsWith("blob:")) URL.revokeObjectURL(url);
}
