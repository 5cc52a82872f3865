// Feeds an SSE body (written by streamblocks) to the official @ag-ui/client.
// Usage: node agui_client.mjs <body.sse> <chunk size in bytes>
// Prints one JSON object: the events parsed and verified by the client's own pipeline,
// and the messages its HttpAgent rebuilt from them (or the error it raised).
import { readFileSync } from "node:fs";
import {
  HttpAgent,
  runHttpRequest,
  transformHttpEventStream,
  verifyEvents,
} from "@ag-ui/client";
import { lastValueFrom, toArray } from "rxjs";

const body = readFileSync(process.argv[2]);
const chunkSize = Number(process.argv[3] || 7);

// The body arrives in small pieces, cut anywhere (inside UTF-8 sequences too).
function response() {
  let offset = 0;
  const stream = new ReadableStream({
    pull(controller) {
      if (offset >= body.length) {
        controller.close();
        return;
      }
      controller.enqueue(new Uint8Array(body.subarray(offset, offset + chunkSize)));
      offset += chunkSize;
    },
  });
  return new Response(stream, {
    status: 200,
    headers: { "content-type": "text/event-stream" },
  });
}

const out = {};
try {
  const events$ = transformHttpEventStream(runHttpRequest(async () => response())).pipe(
    verifyEvents(false),
    toArray(),
  );
  out.events = await lastValueFrom(events$);
} catch (error) {
  out.verifyError = String(error && error.message ? error.message : error);
}
try {
  const agent = new HttpAgent({
    url: "https://agent.invalid/run",
    fetch: async () => response(),
  });
  const seen = [];
  const result = await agent.runAgent({}, {
    onEvent({ event }) {
      seen.push(event.type);
    },
  });
  out.agentEvents = seen;
  out.newMessages = result.newMessages;
  out.result = result.result ?? null;
} catch (error) {
  out.agentError = String(error && error.message ? error.message : error);
}
process.stdout.write(JSON.stringify(out));
