// A long text message as several rows. A reply of 10 MB of markdown in one row is one
// element of hundreds of thousands of nodes, which the browser lays out and paints whole
// (seconds, growing faster than the text) however little of it is in the window. So a
// message goes on in a new row once its row holds PIECE characters, at the next blank
// line outside a code fence that a list, an indented line or a table does not continue:
// each piece is markdown complete in itself, and the virtual list draws only the pieces
// near the window. Each character is looked at once, as it arrives.

export const PIECE = 4096;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const CONTINUES_AT = /\s|[-*+]\s|\d{1,9}[.)]\s|\|/y;
const BLANK_AT = /[ \t\r]*(\n|$)/y;

export class Pieces {
  constructor() {
    this.size = 0; // characters in the current piece
    this.line = ""; // the line not ended yet (it began in an earlier delta)
    this.fence = null; // the open fence's marker
    this.blank = false; // the last line was blank (outside a fence)
  }

  // The offsets in `delta` (the message's next text) at which a new piece begins. The
  // lines are read in place (sticky expressions at each line's start), not copied.
  cuts(delta) {
    const out = [];
    let from = 0;
    let pieceStart = 0; // where the current piece starts in `delta` (0: before it)
    if (this.line) { // the line begun earlier, completed first
      const end = delta.indexOf("\n");
      if (end < 0) {
        this.line += delta;
        this.size += delta.length;
        return out;
      }
      this.look(this.line + delta.slice(0, end));
      this.line = "";
      from = end + 1;
    }
    for (let end = delta.indexOf("\n", from); end >= 0; end = delta.indexOf("\n", from)) {
      if (this.fence === null && this.blank && this.size + from - pieceStart >= PIECE && end > from) {
        CONTINUES_AT.lastIndex = from;
        BLANK_AT.lastIndex = from;
        if (!CONTINUES_AT.test(delta) && !BLANK_AT.test(delta)) {
          out.push(from);
          this.size = 0;
          pieceStart = from;
        }
      }
      this.lookAt(delta, from, end);
      from = end + 1;
    }
    if (from < delta.length) this.line = delta.slice(from);
    this.size += delta.length - pieceStart;
    return out;
  }

  // The line delta[from, end): a fence opens or closes, or it is blank.
  lookAt(delta, from, end) {
    const code = delta.charCodeAt(from);
    if (code !== 32 && code !== 96 && code !== 126 && code !== 9 && code !== 13) {
      if (this.fence === null) this.blank = end === from; // (the common line: no fence, not blank)
      return;
    }
    this.look(delta.slice(from, end));
  }

  look(line) {
    const fence = FENCE.exec(line);
    if (this.fence === null) {
      if (fence) this.fence = fence[1];
      this.blank = !fence && !line.trim();
    } else if (fence && fence[1][0] === this.fence[0] && fence[1].length >= this.fence.length && !line.slice(fence[0].length).trim()) {
      this.fence = null;
      this.blank = false;
    }
  }
}
