// Ports: what the domain needs from storage and the outside world, one file per port. Adapters
// implement them (adapters/dynamodb for DynamoDB or dynalite, adapters/blob for S3 or the local folder).
// Every repository method takes the company id first: there is no "get by id" without a tenant.
export type * from "./paging";
export type * from "./company-objects";
export type * from "./company";
export type * from "./user";
export type * from "./project";
export type * from "./facility";
export type * from "./abatement";
export type * from "./climate";
export type * from "./gost-signatures";
export type * from "./migration";
export type * from "./inventory";
export type * from "./statistics";
export type * from "./calculation";
export type * from "./forecast";
export type * from "./dictionary";
export type * from "./session";
export type * from "./counters";
export type * from "./export-jobs";
export type * from "./blob-store";
export type * from "./audit";
export type * from "./documents";
export type * from "./production-calendar";
export type * from "./media";
export type * from "./monitoring";
export type * from "./instruments";
export type * from "./shift-records";
export type * from "./readings-audit";
export type * from "./webhooks";
export type * from "./own-factors";
export type * from "./webhook-transport";
export type * from "./clock";
export type * from "./changes";
export type * from "./spreadsheet-worker";
export type * from "./repositories";
export type * from "./version-signer";
