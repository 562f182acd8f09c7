// Base64 of bytes, for data: URLs and JSON, and base64url for share links: built a slice at a time, since
// String.fromCharCode takes its arguments on the call stack and a large file would overflow it.

/** The base64 text of `bytes`. */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let start = 0; start < bytes.length; start += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  }
  return btoa(binary);
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The bytes of base64 text; throws a SyntaxError when it is not base64. */
export function fromBase64(text: string): Uint8Array {
  if (!BASE64.test(text) || text.length % 4 !== 0) throw new SyntaxError("bad base64");
  return binaryBytes(atob(text));
}

/** The base64url text of `bytes` (RFC 4648 §5, no padding): safe in a URL's fragment as it is. */
export function toBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The bytes of base64url text (no padding); undefined when it is not base64url. */
export function fromBase64Url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  return binaryBytes(atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4)));
}

function binaryBytes(binary: string): Uint8Array {
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}
