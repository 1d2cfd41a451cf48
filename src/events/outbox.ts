import type { Db } from "../db/connection";
import {
  type EventDataByType,
  type EventPayload,
  type EventType,
  TEST_EVENT_TYPE,
  type TestEventData,
} from "./catalogue";
import { insertDelivery, insertEvent } from "./store";

/**
 * Appends an event to the outbox. Call it inside the transaction of the change it describes: the event
 * then exists exactly when the change does, and the delivery worker can never miss or invent one.
 */
export function appendEvent<Type extends EventType>(
  db: Db,
  projectId: string,
  type: Type,
  data: EventDataByType[Type],
): string {
  const id = Bun.randomUUIDv7();
  const now = Date.now();
  const payload: EventPayload<EventDataByType[Type]> = {
    type,
    timestamp: new Date(now).toISOString(),
    data,
    projectId,
  };
  insertEvent(db, { id, projectId, type, payload: JSON.stringify(payload), createdAt: now });
  return id;
}

/**
 * Stores a test event with its one delivery, to `endpointId`, due now: the event is stored dispatched, so the
 * fan-out never offers it to another endpoint (nor to a `*` one) or to an integration; the worker sends the
 * delivery like any other (docs/webhooks.md, "Test events"). Call it inside a transaction.
 */
export function appendTestEvent(
  db: Db,
  data: TestEventData,
  deliveryId: string,
): EventPayload<TestEventData, typeof TEST_EVENT_TYPE> {
  const id = Bun.randomUUIDv7();
  const now = Date.now();
  const payload: EventPayload<TestEventData, typeof TEST_EVENT_TYPE> = {
    type: TEST_EVENT_TYPE,
    timestamp: new Date(now).toISOString(),
    data,
    projectId: data.projectId,
  };
  const event = { id, projectId: data.projectId, type: TEST_EVENT_TYPE, payload: JSON.stringify(payload) };
  insertEvent(db, { ...event, createdAt: now }, now);
  insertDelivery(
    db,
    deliveryId,
    { id, project_id: data.projectId, type: TEST_EVENT_TYPE },
    { endpointId: data.endpointId },
    now,
  );
  return payload;
}
