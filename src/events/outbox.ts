import type { Db } from "../db/connection";
import type { EventDataByType, EventPayload, EventType } from "./catalogue";
import { insertEvent } from "./store";

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
