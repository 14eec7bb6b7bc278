// Issue 86 R9: the SHA-256 of the published verify.py (export/verify/verify.py), which every
// verification pack carries. A replaced script in a pack prints whatever it likes, so a verifier
// takes the script's SHA-256 independently and compares it with this one, served at
// GET v1/signing-keys/ («verify_py_sha256») and printed in docs/security.md; or runs the repository's
// own copy instead. verify-script.test.ts holds the three to the file: a change to verify.py changes
// them together.
export const VERIFY_PY_SHA256 = "487283729a0da2529a0c368ea2619cdca0bd7f37684ca2e04eaca51d26f529d0";
