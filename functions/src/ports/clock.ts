// The clock the domain reads the time from.

export interface Clock {
  now(): Date;
}
