// the security review's R9: the SHA-256 of the published verify.py (export/verify/verify.py), which every
// verification pack carries. A replaced script in a pack prints whatever it likes, so a verifier
// takes the script's SHA-256 independently and compares it with this one, served at
// GET v1/signing-keys/ («verify_py_sha256») and printed in docs/security.md; or runs the repository's
// own copy instead. verify-script.test.ts holds the three to the file: a change to verify.py changes
// them together.
export const VERIFY_PY_SHA256 = "2bacf4b7ebfa6c067b114c08edf63d82dde7a27ce119c9efae637bb9b54572fc";
