// @ts-check
// Decoding of numeric arrays that arrive from Python over the widget comm.
//
// The Python side sends an array as a small dict
//
//     {data: memoryview(<little-endian bytes>), dtype: "float32", shape: [r, c]}
//
// and ipywidgets hands the bytes to the front end as a DataView, often a view
// into a larger buffer. Every function here respects the view's `byteOffset`
// and `byteLength`; a view whose offset is aligned to the element size is
// wrapped without copying, a misaligned one is copied once.

/**
 * A typed array of one of the dtypes we accept.
 *
 * @typedef {Float32Array | Float64Array | Int8Array | Int16Array | Int32Array
 *   | Uint8Array | Uint16Array | Uint32Array} TypedArray
 */

/**
 * Typed-array constructors for the dtype names (numpy's) we accept.
 *
 * @type {Readonly<Record<string, {BYTES_PER_ELEMENT: number,
 *   new (buffer: ArrayBufferLike, byteOffset?: number, length?: number):
 *   TypedArray}>>}
 */
const DTYPES = Object.freeze({
  float32: Float32Array,
  float64: Float64Array,
  int8: Int8Array,
  int16: Int16Array,
  int32: Int32Array,
  uint8: Uint8Array,
  uint16: Uint16Array,
  uint32: Uint32Array,
});

/** Typed arrays whose elements are raw bytes, read like a DataView. */
const BYTE_ARRAYS = [Uint8Array, Int8Array, Uint8ClampedArray];

/** @param {unknown} value */
function describe(value) {
  if (value === null) return "null";
  if (typeof value !== "object") return typeof value;
  return value.constructor?.name ?? "object";
}

/** @param {string} dtype */
function arrayType(dtype) {
  const Type = Object.hasOwn(DTYPES, dtype) ? DTYPES[dtype] : undefined;
  if (Type === undefined) {
    throw new TypeError(
      `Unsupported dtype ${JSON.stringify(dtype)}; expected one of ` +
        `${Object.keys(DTYPES).join(", ")}.`,
    );
  }
  return Type;
}

/**
 * View binary data as a typed array of the given dtype.
 *
 * @param {DataView | ArrayBuffer | ArrayBufferView} value
 *   A DataView (as ipywidgets delivers buffers), an ArrayBuffer, a byte array
 *   (Uint8Array, e.g. a Node Buffer) holding the raw bytes, or a typed array
 *   that already has the requested type (returned as is).
 * @param {string} [dtype="float32"] numpy dtype name, see `DTYPES`.
 * @returns {TypedArray} a typed array sharing memory with `value` when
 *   its byte offset is aligned, otherwise an aligned copy.
 * @throws {TypeError} for an unsupported dtype or a value that is not binary
 *   data, or a typed array of another element type.
 * @throws {RangeError} when the byte length is not a multiple of the element
 *   size.
 */
export function typedArray(value, dtype = "float32") {
  const Type = arrayType(dtype);
  if (value instanceof Type) return value;

  let buffer;
  let byteOffset;
  let byteLength;
  if (value instanceof ArrayBuffer) {
    buffer = value;
    byteOffset = 0;
    byteLength = value.byteLength;
  } else if (
    value instanceof DataView ||
    BYTE_ARRAYS.some((ByteArray) => value instanceof ByteArray)
  ) {
    ({ buffer, byteOffset, byteLength } = value);
  } else if (ArrayBuffer.isView(value)) {
    throw new TypeError(
      `Expected ${dtype} data, got a ${describe(value)}; send the array ` +
        `as ${dtype} or pass its bytes as a DataView.`,
    );
  } else {
    throw new TypeError(
      `Expected binary data (DataView, ArrayBuffer or typed array), got ` +
        `${describe(value)}.`,
    );
  }

  const size = Type.BYTES_PER_ELEMENT;
  if (byteLength % size !== 0) {
    throw new RangeError(
      `${dtype} data must have a byte length that is a multiple of ${size}; ` +
        `got ${byteLength} bytes.`,
    );
  }
  const length = byteLength / size;
  if (byteOffset % size === 0) {
    return new Type(buffer, byteOffset, length);
  }
  // Misaligned view: typed arrays cannot start there, so copy the bytes.
  return new Type(buffer.slice(byteOffset, byteOffset + byteLength));
}

/**
 * View binary data as a Float32Array (see `typedArray`).
 *
 * @param {DataView | ArrayBuffer | ArrayBufferView} value
 * @returns {Float32Array}
 */
export function float32Array(value) {
  // typedArray's type is the union of the dtypes: "float32" is this one.
  return /** @type {Float32Array} */ (typedArray(value, "float32"));
}

/**
 * @param {unknown} shape
 * @returns {asserts shape is number[]}
 */
function checkShape(shape) {
  const ok =
    Array.isArray(shape) &&
    shape.every((n) => Number.isInteger(n) && n >= 0);
  if (!ok) {
    throw new TypeError(
      `shape must be an array of non-negative integers; got ` +
        `${JSON.stringify(shape)}.`,
    );
  }
}

/**
 * Decode the `{data, dtype, shape}` convention used for arrays sent from
 * Python.
 *
 * @param {import("./ui/model.js").TraitPayload | null | undefined} array
 *   `{data, dtype, shape}` as Python sends it: `data` a DataView,
 *   ArrayBuffer or byte array, `shape` by default `[n]` (1-D); each field
 *   is checked.
 * @returns {{values: TypedArray, dtype: string, shape: number[]}}
 *   `values` is the flat, row-major (C-order) data.
 * @throws {TypeError | RangeError} on a missing field, an unsupported dtype,
 *   a malformed shape, or data whose length does not match the shape.
 */
export function decodeArray(array) {
  if (array === null || typeof array !== "object") {
    throw new TypeError(
      `Expected an object {data, dtype, shape}, got ${describe(array)}.`,
    );
  }
  const { data, dtype } = array;
  if (dtype === undefined) {
    throw new TypeError("Array is missing its dtype.");
  }
  const values = typedArray(data, dtype);
  const shape = array.shape === undefined ? [values.length] : array.shape;
  checkShape(shape);
  const expected = shape.reduce((a, b) => a * b, 1);
  if (expected !== values.length) {
    throw new RangeError(
      `shape ${JSON.stringify(shape)} needs ${expected} ${dtype} values; ` +
        `got ${values.length}.`,
    );
  }
  return { values, dtype, shape: [...shape] };
}

/**
 * Row `i` of a decoded 2-D array, as a view (no copy).
 *
 * @param {{values: TypedArray, shape: number[]}} array from `decodeArray`.
 * @param {number} i row index, 0 <= i < shape[0].
 * @returns {TypedArray}
 */
export function row(array, i) {
  const { values, shape } = array;
  if (shape.length !== 2) {
    throw new RangeError(
      `row() needs a 2-D array; got shape ${JSON.stringify(shape)}.`,
    );
  }
  const [rows, cols] = shape;
  if (!Number.isInteger(i) || i < 0 || i >= rows) {
    throw new RangeError(`Row index must be in [0, ${rows}); got ${i}.`);
  }
  return values.subarray(i * cols, (i + 1) * cols);
}
