/**
 * Marks an English message a schema gives as one to translate: it returns the text as it is. The
 * gateway sends it in English (the API speaks English); a screen shows it through `t(message)`, in
 * the user's language. The translations test (libs/i18n/catalogues.spec.ts) finds the texts by this
 * mark. Free of any import, as libs/schemas runs in the browser and in Node.
 */
export const msg = <T extends string>(text: T): T => text;
