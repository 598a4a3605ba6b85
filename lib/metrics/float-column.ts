/** A growable Float64 column: 8 bytes a value where a JS array of boxed numbers took far more. */
export class Float64Column {
  private data = new Float64Array(1024);
  length = 0;

  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Float64Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }

  /** The values pushed so far: a view on the column, valid until the next push. */
  values(): Float64Array {
    return this.data.subarray(0, this.length);
  }
}
