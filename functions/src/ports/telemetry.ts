// The mine's monitoring (methodology section 12): its sensor register (D56) and the gateway keys its
// dispatch gateway pushes readings with.
import type * as z from "zod";
import type { gatewayKeySchema, sensorSchema } from "../contract/schemas/sensor";

/** D56: a sensor of a facility with its register as it was, change by change. */
export type Sensor = z.output<typeof sensorSchema>;

export interface SensorRepository {
  /** Refused (Conflict) when the id is taken. */
  create(sensor: Sensor): Promise<void>;
  get(companyId: string, facilityId: string, sensorId: string): Promise<Sensor | undefined>;
  /** The facility's sensors, retired ones too, by code. */
  listOfFacility(companyId: string, facilityId: string): Promise<Sensor[]>;
  /** Writes `next` only if the stored version is still `expectedVersion`; otherwise Conflict. */
  replace(next: Sensor, expectedVersion: number): Promise<void>;
}

/** A gateway key as stored: its SHA-256, never the key. */
export type GatewayKey = z.output<typeof gatewayKeySchema> & { company: string; hash: string };

/** What a key presented is: the facility it may push to. */
export interface GatewayKeyGrant {
  company: string;
  facility: string;
  id: string;
}

export interface GatewayKeyRepository {
  /** Stores the key and the lookup of its hash together; Conflict when either exists. */
  create(key: GatewayKey): Promise<void>;
  /** The facility's keys, revoked ones too, newest first. */
  listOfFacility(companyId: string, facilityId: string): Promise<GatewayKey[]>;
  get(companyId: string, facilityId: string, keyId: string): Promise<GatewayKey | undefined>;
  /** Marks the key revoked at `at` and removes its lookup together: a revoked key never authenticates. */
  revoke(companyId: string, facilityId: string, keyId: string, at: string): Promise<void>;
  /** The grant of a key's hash, undefined for none or a revoked one. */
  byHash(hash: string): Promise<GatewayKeyGrant | undefined>;
}
