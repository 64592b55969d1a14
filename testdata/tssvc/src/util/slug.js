// Plain JavaScript, to show that scip-typescript indexes .js files too.

/**
 * Turns a display name into a URL-safe slug: "Ada Lovelace" → "ada-lovelace".
 * @param {string} name
 * @returns {string}
 */
function slugify(name) {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

module.exports = { slugify };
