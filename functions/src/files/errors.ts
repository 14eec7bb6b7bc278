// A file refused for its type, size or content: the readers of this folder throw it with the
// status and the Russian detail the API answers with (http/errors.ts maps it like the domain's
// errors), so that reading a file needs nothing of the domain.
export class FileRefused extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    readonly detail: string,
  ) {
    super(detail);
    this.name = new.target.name;
  }
}

/** A refused file's content: 400. */
export const badFile = (detail: string) => new FileRefused(400, detail);
