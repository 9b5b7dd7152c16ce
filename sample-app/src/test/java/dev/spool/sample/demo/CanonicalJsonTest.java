package dev.spool.sample.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JsonProcessingException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class CanonicalJsonTest {

  private static String canonical(String json) throws JsonProcessingException {
    return CanonicalJson.of(CanonicalJson.parse(json));
  }

  @ParameterizedTest(name = "{0} equals {1}")
  @CsvSource(delimiter = '|', value = {
      "{\"a\":1.5,\"b\":[1,2]}              | { \"b\" : [ 1 , 2 ], \"a\" : 1.50 }",
      "{\"x\":100}                          | {\"x\":1e2}",
      "{\"x\":1}                            | {\"x\":1.0}",
      "{\"x\":0.001}                        | {\"x\":1.0E-3}",
      "{\"x\":-0.0}                         | {\"x\":0}",
      "{\"x\":0.1}                          | {\"x\":0.10000000000000001}",
      "{\"x\":2.0}                          | {\"x\":2}",
      "{\"s\":\"\\u00e9\"}                  | {\"s\":\"é\"}",
  })
  void shouldTreatDifferentSpellingsOfTheSameValueAsEqual(String a, String b) throws Exception {
    assertEquals(canonical(a), canonical(b));
  }

  @ParameterizedTest(name = "{0} differs from {1}")
  @CsvSource(delimiter = '|', value = {
      "{\"x\":0.1}                          | {\"x\":0.10000000149011612}",
      "{\"x\":0.1}                          | {\"x\":0.1000000000000001}",
      "{\"x\":9007199254740993}             | {\"x\":9007199254740992}",
      "{\"x\":12345678901234567890123}      | {\"x\":12345678901234567890124}",
      "{\"x\":0.30000000000000004}          | {\"x\":0.3}",
      "{\"x\":[1,2]}                        | {\"x\":[2,1]}",
      "{\"x\":[1,2]}                        | {\"x\":[1,2,2]}",
      "{\"x\":1}                            | {\"x\":\"1\"}",
      "{\"x\":null}                         | {}",
      "{\"x\":true}                         | {\"x\":false}",
      "{\"s\":\"a\"}                        | {\"s\":\"a \"}",
      "{\"a\":{\"b\":1}}                    | {\"a\":{\"b\":1,\"c\":1}}",
  })
  void shouldKeepEveryOtherDifference(String a, String b) throws Exception {
    assertNotEquals(canonical(a), canonical(b));
  }

  @Test
  void shouldRejectDuplicateKeysAndTrailingText() {
    assertThrows(JsonProcessingException.class, () -> CanonicalJson.parse("{\"a\":1,\"a\":2}"));
    assertThrows(JsonProcessingException.class, () -> CanonicalJson.parse("{\"a\":1} {\"a\":1}"));
    assertThrows(JsonProcessingException.class, () -> CanonicalJson.parse("{\"a\":NaN}"));
  }

  @Test
  void shouldNameThePathOfTheFirstDifference() throws Exception {
    var a = CanonicalJson.parse("{\"job\":\"j\",\"p\":[0.5,0.25,1],\"q\":{\"r\":1}}");
    var b = CanonicalJson.parse("{\"job\":\"j\",\"p\":[0.5,0.2500,2],\"q\":{\"r\":1}}");
    assertEquals("/p/2: 1 vs 2", CanonicalJson.firstDifference(a, b, ""));
    var c = CanonicalJson.parse("{\"job\":\"j\",\"p\":[0.5,0.25],\"q\":{\"r\":1}}");
    assertEquals("/p/2: 1 vs absent (arrays of 3 vs 2 elements)",
        CanonicalJson.firstDifference(a, c, ""));
    var d = CanonicalJson.parse("{\"job\":\"j\",\"p\":[0.5,0.25,1],\"q\":{}}");
    assertEquals("/q/r: 1 vs absent", CanonicalJson.firstDifference(a, d, ""));
    assertNull(CanonicalJson.firstDifference(a, a.deepCopy(), ""));
  }
}
