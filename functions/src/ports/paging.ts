// Paging of lists: a page of results and the request for one.

export interface Page<T> {
  results: T[];
  count: number;
}

export interface PageRequest {
  limit: number;
  offset: number;
}
