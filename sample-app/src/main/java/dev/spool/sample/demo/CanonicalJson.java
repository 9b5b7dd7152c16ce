package dev.spool.sample.demo;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Parsed JSON in one canonical text, so that two values are equal exactly when their canonical
 * texts are: object members sorted by name, numbers by value ({@code 1.50}, {@code 1.5} and
 * {@code 15E-1} are one number, see {@link #number}), strings re-escaped one way, no whitespace.
 * Nothing else is forgiven: a double narrowed to a float, a missing member, an extra array
 * element, a number turned into a string all change the text.
 */
final class CanonicalJson {
  /** Floats parse to BigDecimal so that no digit is lost; a duplicate key or trailing text fails. */
  static final ObjectMapper STRICT = JsonMapper.builder()
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .build();

  private static final double MAX_EXACT_INTEGER = 0x1p53;

  private CanonicalJson() {}

  static JsonNode parse(String text) throws JsonProcessingException {
    return STRICT.readTree(text);
  }

  static String of(JsonNode node) {
    StringBuilder out = new StringBuilder();
    write(node, out);
    return out.toString();
  }

  private static void write(JsonNode node, StringBuilder out) {
    if (node.isObject()) {
      List<String> names = new ArrayList<>();
      node.fieldNames().forEachRemaining(names::add);
      names.sort(null);
      out.append('{');
      for (int i = 0; i < names.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        quote(names.get(i), out);
        out.append(':');
        write(node.get(names.get(i)), out);
      }
      out.append('}');
    } else if (node.isArray()) {
      out.append('[');
      for (int i = 0; i < node.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        write(node.get(i), out);
      }
      out.append(']');
    } else if (node.isNumber()) {
      out.append(number(node));
    } else if (node.isTextual()) {
      quote(node.textValue(), out);
    } else {
      out.append(node.toString()); // true, false, null
    }
  }

  /**
   * One spelling per number. Integers (no fraction, no exponent) keep their exact value. Other
   * numbers are the IEEE double they denote, which is what the app and any JSON codec hold, so
   * {@code 0.1} and {@code 0.10000000000000001} are one number while {@code 0.1} and the widened
   * float {@code 0.10000000149011612} are two; a double with an integer value is written as that
   * integer, so {@code 2.0} equals {@code 2}.
   */
  static String number(JsonNode node) {
    if (node.isIntegralNumber()) {
      return node.bigIntegerValue().toString();
    }
    BigDecimal exact = node.decimalValue();
    double value = exact.doubleValue(); // correctly rounded
    if (Double.isInfinite(value)) {
      return exact.stripTrailingZeros().toString(); // beyond any double: keep it exact
    }
    if (value == Math.rint(value) && Math.abs(value) <= MAX_EXACT_INTEGER) {
      return Long.toString((long) value);
    }
    return Double.toString(value);
  }

  private static void quote(String text, StringBuilder out) {
    try {
      out.append(STRICT.writeValueAsString(text));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot quote a string", e);
    }
  }

  /**
   * The JSON pointer of the first place where {@code a} and {@code b} differ, and both values
   * there, e.g. {@code /positions/3: -0.25 vs -0.5}; or null when they are equal.
   */
  static String firstDifference(JsonNode a, JsonNode b, String at) {
    if (of(a).equals(of(b))) {
      return null;
    }
    if (a.isObject() && b.isObject()) {
      List<String> names = new ArrayList<>();
      a.fieldNames().forEachRemaining(names::add);
      b.fieldNames().forEachRemaining(n -> {
        if (!a.has(n)) {
          names.add(n);
        }
      });
      names.sort(null);
      for (String name : names) {
        String path = at + "/" + name;
        if (!a.has(name) || !b.has(name)) {
          return path + ": " + shown(a.get(name)) + " vs " + shown(b.get(name));
        }
        String inner = firstDifference(a.get(name), b.get(name), path);
        if (inner != null) {
          return inner;
        }
      }
    } else if (a.isArray() && b.isArray()) {
      Iterator<JsonNode> ia = a.elements();
      Iterator<JsonNode> ib = b.elements();
      for (int i = 0; ia.hasNext() || ib.hasNext(); i++) {
        String path = at + "/" + i;
        if (!ia.hasNext() || !ib.hasNext()) {
          return path + ": " + (ia.hasNext() ? shown(ia.next()) : "absent") + " vs "
              + (ib.hasNext() ? shown(ib.next()) : "absent") + " (arrays of " + a.size()
              + " vs " + b.size() + " elements)";
        }
        String inner = firstDifference(ia.next(), ib.next(), path);
        if (inner != null) {
          return inner;
        }
      }
    }
    return (at.isEmpty() ? "/" : at) + ": " + shown(a) + " vs " + shown(b);
  }

  private static String shown(JsonNode node) {
    if (node == null) {
      return "absent";
    }
    String text = node.toString();
    return text.length() > 80 ? text.substring(0, 80) + "…" : text;
  }

  /** Member {@code name} of an object as plain text, for naming a record; null if absent. */
  static String member(JsonNode node, String name) {
    JsonNode value = node.isObject() ? node.get(name) : null;
    return value == null ? null : value.isTextual() ? value.textValue() : of(value);
  }

  static Map.Entry<String, String> identity(JsonNode node) {
    return Map.entry(String.valueOf(member(node, "job")), String.valueOf(member(node, "step")));
  }
}
