package dev.spool.sample;

import java.util.List;
import java.util.Map;

/** Typed access to a job document read back as plain maps and lists, with errors naming the field. */
final class Documents {
  private Documents() {}

  /** The value at {@code path}'s last segment in {@code map}; the path is only for messages. */
  static Object field(Map<?, ?> map, String path) {
    String key = path.substring(path.lastIndexOf('.') + 1);
    Object value = map.get(key);
    if (value == null) {
      throw new IllegalStateException("document field " + path + " is missing");
    }
    return value;
  }

  static Number number(Map<?, ?> map, String path) {
    Object value = field(map, path);
    if (!(value instanceof Number number)) {
      throw new IllegalStateException("document field " + path + " is not a number: " + value);
    }
    return number;
  }

  static Map<?, ?> object(Map<?, ?> map, String path) {
    Object value = field(map, path);
    if (!(value instanceof Map<?, ?> object)) {
      throw new IllegalStateException("document field " + path + " is not an object: " + value);
    }
    return object;
  }

  static double[] doubles(Map<?, ?> map, String path, int expectedLength) {
    Object value = field(map, path);
    if (!(value instanceof List<?> list) || list.size() != expectedLength) {
      throw new IllegalStateException(
          "document field " + path + " is not an array of " + expectedLength + " numbers: " + value);
    }
    double[] result = new double[expectedLength];
    for (int i = 0; i < expectedLength; i++) {
      if (!(list.get(i) instanceof Number n)) {
        throw new IllegalStateException("document field " + path + "[" + i + "] is not a number");
      }
      result[i] = n.doubleValue();
    }
    return result;
  }
}
