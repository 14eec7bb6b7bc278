// Issue 86 R9: the SHA-256 of the published verify.py (export/verify/verify.py), which every
// verification pack carries. A replaced script in a pack prints whatever it likes, so a verifier
// takes the script's SHA-256 independently and compares it with this one, served at
// GET v1/signing-keys/ («verify_py_sha256») and printed in docs/security.md; or runs the repository's
// own copy instead. verify-script.test.ts holds the three to the file: a change to verify.py changes
// them together.
export const VERIFY_PY_SHA256 = "96f2ecf876e85b5413ab8b6645ecc984f07f24b5c52d7bd72e7c215ad1404e43";
