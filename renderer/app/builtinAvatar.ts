/** The name the studio gives its built-in avatar (the generated mannequin); the info panel words it in the user's language. */
export const BUILTIN_AVATAR_NAME = 'Mannequin';
