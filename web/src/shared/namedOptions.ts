// what a select's options say to a screen reader. antd (rc-select) keeps, beside a
// virtual list, a hidden list of the open select's options for assistive technology whose text is each
// option's value — an internal code («air_velocity», «recording») or an id — next to the Russian label the
// user sees. A select of codes is given NAMED_OPTIONS: its list rendered whole (no hidden list), each option
// named and titled by its label only. For the short lists of a kind, a place, a role (tens of options at
// most); a list of hundreds keeps the virtual one.
export const NAMED_OPTIONS = { virtual: false } as const;
