// Where iw_embed.js finds a widget's bundle. The name comes from the page's
// widget state (`_module`, written by docs/conf.py as the bundle's file name
// without extension: "permutation_widget"), so it is data: only a plain
// lowercase name is accepted, which resolves in this folder (_static/).
// A value such as "//host/x" or "../x" would otherwise load a script from
// another origin or folder.

// Lowercase letters and underscores, as build.mjs names its entries.
const BUNDLE_NAME = /^[a-z][a-z_]{0,63}$/;

/**
 * The URL of bundle `name`'s file with `extension` (".js" or ".css") beside
 * `base` (this folder's URL: import.meta.url).
 *
 * @param {unknown} name
 * @param {".js" | ".css"} extension
 * @param {string} base
 * @returns {string}
 * @throws {Error} if `name` is not a bundle name of this site.
 */
export function bundleUrl(name, extension, base) {
  const shown = JSON.stringify(String(name)).slice(0, 80);
  if (typeof name !== "string" || !BUNDLE_NAME.test(name))
    throw new Error(`${shown} is not the name of one of this site's widget bundles`);
  // A plain name resolves in `base`'s folder: no scheme, host or "..".
  return new URL(`${name}${extension}`, base).href;
}
