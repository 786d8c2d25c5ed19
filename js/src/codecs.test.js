import { describe, expect, it } from "vitest";

import { decodeArray, float32Array, row, typedArray } from "./codecs.js";

/** A DataView onto `values` (as float32) placed `offset` bytes into a larger buffer. */
function viewAt(values, offset, { padAfter = 8 } = {}) {
  const bytes = new Float32Array(values).buffer;
  const buffer = new ArrayBuffer(offset + bytes.byteLength + padAfter);
  const u8 = new Uint8Array(buffer);
  u8.fill(0xff); // garbage around the payload, must never be read
  u8.set(new Uint8Array(bytes), offset);
  return new DataView(buffer, offset, bytes.byteLength);
}

describe("float32Array", () => {
  it("reads a DataView at offset 0", () => {
    const out = float32Array(viewAt([1.5, -2, 3.25], 0));
    expect(out).toBeInstanceOf(Float32Array);
    expect(Array.from(out)).toEqual([1.5, -2, 3.25]);
  });

  it("respects a non-zero, aligned byteOffset without copying", () => {
    const dv = viewAt([0.5, 1, 2], 8);
    const out = float32Array(dv);
    expect(Array.from(out)).toEqual([0.5, 1, 2]);
    expect(out.buffer).toBe(dv.buffer);
    expect(out.byteOffset).toBe(8);
  });

  it("copies a view whose byteOffset is not a multiple of 4", () => {
    const dv = viewAt([7, 8, 9], 3);
    const out = float32Array(dv);
    expect(Array.from(out)).toEqual([7, 8, 9]);
    expect(out.byteOffset).toBe(0);
    expect(out.buffer).not.toBe(dv.buffer);
  });

  it("accepts an ArrayBuffer", () => {
    const out = float32Array(new Float32Array([4, 5]).buffer);
    expect(Array.from(out)).toEqual([4, 5]);
  });

  it("returns a Float32Array unchanged", () => {
    const arr = new Float32Array([1, 2]);
    expect(float32Array(arr)).toBe(arr);
  });

  it("reads a Uint8Array as raw bytes, honouring its offset", () => {
    const dv = viewAt([10, 20], 4);
    const bytes = new Uint8Array(dv.buffer, dv.byteOffset, dv.byteLength);
    expect(Array.from(float32Array(bytes))).toEqual([10, 20]);
  });

  it("reads an empty view", () => {
    expect(float32Array(new DataView(new ArrayBuffer(0))).length).toBe(0);
  });

  it("rejects a byte length that is not a multiple of 4", () => {
    const dv = new DataView(new ArrayBuffer(16), 2, 7);
    expect(() => float32Array(dv)).toThrow(RangeError);
    expect(() => float32Array(dv)).toThrow(/multiple of 4; got 7 bytes/);
  });

  it("rejects a typed array of another element type", () => {
    expect(() => float32Array(new Float64Array([1, 2]))).toThrow(
      /Expected float32 data, got a Float64Array/,
    );
  });

  it.each([[null], [undefined], [[1, 2, 3]], [3], ["abc"], [{}]])(
    "rejects non-binary input %j",
    (value) => {
      expect(() => float32Array(value)).toThrow(TypeError);
    },
  );
});

describe("typedArray", () => {
  it("decodes float64 and int32", () => {
    const f64 = new Float64Array([0.1, 1e300]);
    expect(Array.from(typedArray(new DataView(f64.buffer), "float64"))).toEqual([
      0.1, 1e300,
    ]);
    const i32 = new Int32Array([-3, 2 ** 31 - 1]);
    expect(Array.from(typedArray(new DataView(i32.buffer), "int32"))).toEqual([
      -3,
      2 ** 31 - 1,
    ]);
  });

  it("rejects an unsupported dtype by name", () => {
    const dv = new DataView(new ArrayBuffer(8));
    expect(() => typedArray(dv, "int64")).toThrow(/Unsupported dtype "int64"/);
    expect(() => typedArray(dv, "toString")).toThrow(TypeError);
  });
});

describe("decodeArray", () => {
  it("decodes a 2-D float32 array sent from a non-zero offset", () => {
    const dv = viewAt([1, 2, 3, 4, 5, 6], 12);
    const arr = decodeArray({ data: dv, dtype: "float32", shape: [2, 3] });
    expect(arr.values).toBeInstanceOf(Float32Array);
    expect(arr.shape).toEqual([2, 3]);
    expect(arr.dtype).toBe("float32");
    expect(Array.from(row(arr, 0))).toEqual([1, 2, 3]);
    expect(Array.from(row(arr, 1))).toEqual([4, 5, 6]);
  });

  it("copies the shape so callers cannot alias it", () => {
    const shape = [2];
    const arr = decodeArray({ data: viewAt([1, 2], 0), dtype: "float32", shape });
    shape[0] = 99;
    expect(arr.shape).toEqual([2]);
  });

  it("defaults to a 1-D shape", () => {
    const arr = decodeArray({ data: viewAt([1, 2, 3], 4), dtype: "float32" });
    expect(arr.shape).toEqual([3]);
  });

  it("decodes an empty (0, 3) array", () => {
    const arr = decodeArray({
      data: new DataView(new ArrayBuffer(0)),
      dtype: "float32",
      shape: [0, 3],
    });
    expect(arr.values.length).toBe(0);
  });

  it("rejects data that does not match the shape", () => {
    const data = viewAt([1, 2, 3, 4, 5], 0);
    expect(() => decodeArray({ data, dtype: "float32", shape: [2, 3] })).toThrow(
      /shape \[2,3\] needs 6 float32 values; got 5/,
    );
  });

  it("rejects a wrong dtype", () => {
    const data = viewAt([1, 2], 0);
    expect(() => decodeArray({ data, dtype: "float16", shape: [2] })).toThrow(
      /Unsupported dtype "float16"/,
    );
    expect(() => decodeArray({ data, shape: [2] })).toThrow(/missing its dtype/);
  });

  it.each([[[2, -1]], [[1.5]], ["2"], [null]])("rejects shape %j", (shape) => {
    const data = viewAt([1, 2], 0);
    expect(() => decodeArray({ data, dtype: "float32", shape })).toThrow(
      /shape must be an array of non-negative integers/,
    );
  });

  it("rejects a non-object", () => {
    expect(() => decodeArray(null)).toThrow(TypeError);
  });
});

describe("row", () => {
  const arr = decodeArray({
    data: viewAt([1, 2, 3, 4], 0),
    dtype: "float32",
    shape: [2, 2],
  });

  it("returns a view, not a copy", () => {
    expect(row(arr, 1).buffer).toBe(arr.values.buffer);
  });

  it.each([[-1], [2], [0.5]])("rejects row index %j", (i) => {
    expect(() => row(arr, i)).toThrow(/Row index must be in \[0, 2\)/);
  });

  it("rejects a 1-D array", () => {
    const flat = decodeArray({ data: viewAt([1, 2], 0), dtype: "float32" });
    expect(() => row(flat, 0)).toThrow(/needs a 2-D array/);
  });
});
