// Saving a file the user asked for: a click on a temporary link to an object URL of its bytes.

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
