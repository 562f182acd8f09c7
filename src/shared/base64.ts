// Base64 of bytes, for data: URLs and JSON: built a slice at a time, since String.fromCharCode takes its arguments on
// the call stack and a large file would overflow it.

/** The base64 text of `bytes`. */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let start = 0; start < bytes.length; start += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  }
  return btoa(binary);
}
