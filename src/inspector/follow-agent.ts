import { Subscription } from 'rxjs';
import type { Agent } from '../agent/agent.js';
import type { AgentEvent } from '../core/agent-event.js';
import type { StreamRecord } from '../events/event-bus.js';
import type { TimelineBuilder } from './timeline-builder.js';
import type { TimelineStep } from './timeline-step.js';

/**
 * Receives the steps a change created or updated in the followed timeline; `streamed` is true
 * for streamed text and reasoning (a page may batch those).
 */
export type FollowListener = (steps: readonly TimelineStep[], streamed: boolean) => void;

/**
 * Feeds `builder` with an agent as it runs: its session's log from the start and then live (one
 * log: no gap, no duplicate), the lifecycle events of its stream, and, for each child agent its
 * calls start (`agent.children$`, announced before the child runs), the child's own log and
 * events into the child's timeline under its call, as deep as agents nest. A child's change
 * reaches `changed` as its parent's call step. Returns the subscription that stops all of it.
 */
export function followAgent(agent: Agent, builder: TimelineBuilder, changed: FollowListener): Subscription {
  const following = new Subscription();
  following.add(agent.session.follow(0).subscribe(({ entry }) => changed(builder.addEntry(entry), false)));
  following.add(
    agent.stream$.subscribe((record: StreamRecord) => {
      if (record.journalIndex !== undefined) return; // the log above has it
      const event = record.entry as AgentEvent;
      changed(builder.addEvent(event, record.at), event.type === 'text_delta' || event.type === 'reasoning_delta');
    }),
  );
  following.add(
    agent.children$.subscribe((child) => {
      const timeline = builder.childTimeline(child.sessionId);
      following.add(
        followAgent(child.agent, timeline, (steps, streamed) => {
          if (steps.length > 0) changed(builder.childChanged(child.sessionId), streamed);
        }),
      );
    }),
  );
  return following;
}
