// Where <sb-run> (app.js) reads the run: the server's /events?batch (AG-UI events over
// server-sent events, each message a JSON array of the events the server had ready: one
// message and one parse per thousands of events), or a saved page's own
// <script type="application/json"> batches (`streamblocks view RUN --html`). Messages
// are queued as they arrive and parsed when their turn comes in a frame.

// A server message that was not a JSON array of events: shown as a warning row in turn.
export class NotEvents {
  constructor(data) {
    this.data = String(data);
  }
}

export const Source = {
  // The server's stream, or the saved page's batches.
  connect() {
    const embedded = document.getElementById("sb-info");
    if (embedded !== null) {
      this.readEmbedded(embedded);
      return;
    }
    fetch("/info.json")
      .then((response) => response.json())
      .then((info) => this.shown(info))
      .catch(() => {});
    this.source = new EventSource("/events?batch");
    this.source.onopen = () => {
      if (this.current === "connecting") this.state("waiting");
    };
    this.source.onmessage = (message) => this.enqueue(message.data);
    this.source.onerror = () => {
      if (this.source.readyState === EventSource.CLOSED) this.closed();
      else if (!this.finished) this.state("disconnected");
    };
  },

  // A saved page (`streamblocks view RUN --html`): the run is in the file, as the
  // server's batches, each read when its turn comes (and its element dropped then).
  readEmbedded(element) {
    this.embedded = true;
    this.shown(JSON.parse(element.textContent));
    for (const batch of document.querySelectorAll("script.sb-batch")) this.enqueue(batch);
    if (!this.queue.length) this.closed();
  },

  // Messages are kept as they came (a string each) and parsed when their turn comes
  // in a frame, so the first frame is not held up by parsing the whole backlog.
  enqueue(data) {
    if (!performance.getEntriesByName("sb-first-event").length) performance.mark("sb-first-event");
    this.queue.push(data);
    if (!this.scheduled) {
      this.scheduled = true;
      requestAnimationFrame(() => this.flush());
    }
  },

  // The next event to apply (parsing the next message when the current one is used up).
  next() {
    while (this.head === this.events.length) {
      if (!this.queue.length) return undefined;
      let data = this.queue.shift();
      if (typeof data !== "string") {
        const element = data;
        data = element.textContent;
        element.remove();
      }
      let events;
      try {
        events = JSON.parse(data);
      } catch {
        events = null;
      }
      this.events = Array.isArray(events) ? events : [new NotEvents(data)];
      this.head = 0;
    }
    this.head += 1;
    return this.events[this.head - 1];
  },
};
