/**
 * A `Content-Disposition: attachment` value for a file name in any script: an ASCII fallback
 * (other characters, quotes and backslashes as `_`) and the exact name as RFC 5987 UTF-8.
 */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
