// Checks on a zip archive's members made before anything is inflated, shared by every reader of user-supplied
// archives (skills, backups): names that could escape a folder, the zip signature, and a member's declared size.

/** True when a member `name` could leave its folder or means something else on another system. */
export function isUnsafeMemberName(name: string): boolean {
  return (
    name.startsWith("/") ||
    name.includes("\\") ||
    name.includes(":") ||
    name.includes("\0") ||
    name.split("/").some((segment) => segment === "..")
  );
}

/** `PK\3\4` (a local file header) or `PK\5\6` (the end record of an empty archive). */
export function hasZipMagic(bytes: Uint8Array): boolean {
  return (
    bytes[0] === 0x50 && bytes[1] === 0x4b && ((bytes[2] === 3 && bytes[3] === 4) || (bytes[2] === 5 && bytes[3] === 6))
  );
}

/**
 * The most bytes a member can inflate to, from the zip's directory: a stored member's data is `size` bytes whatever
 * it declares; an inflated one is cut at `originalSize` (fflate inflates into a buffer of that length).
 */
export function declaredMemberSize(member: { size: number; originalSize: number; compression: number }): number {
  return Math.max(member.originalSize, member.compression === 0 ? member.size : 0);
}
