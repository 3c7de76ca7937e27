/**
 * Substring search that behaves the same on SQLite and PostgreSQL. Searchable
 * text is stored normalized (Unicode NFKC, lowercased), and LIKE's special
 * characters are swapped for private-use code points both in the stored text
 * and in the search, so a Prisma `contains` (LIKE) matches them literally and
 * case-insensitively beyond ASCII.
 */
const LIKE_SPECIALS: Record<string, string> = { '%': '\uE000', _: '\uE001', '\\': '\uE002' };

export function searchable(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[%_\\]/g, (special) => LIKE_SPECIALS[special]!);
}

/** The stored search text of a user: name and email, on separate lines so a search never spans both. */
export function userSearchText(user: { displayName: string; email: string }): string {
  return searchable(`${user.displayName}\n${user.email}`);
}
