package dev.spool.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class FixedTest {

  @ParameterizedTest(name = "{0} with {1} decimals is {2}")
  @CsvSource({
      "0.0, 6, 0.000000",
      "-0.0, 6, 0.000000",
      "-0.0000004, 6, 0.000000",
      "-0.0000005, 6, -0.000001",
      "0.25, 2, 0.25",
      "0.125, 2, 0.13",
      "-0.208207123, 6, -0.208207",
      "12.5, 0, 13",
      "3.000001, 6, 3.000001",
      "1.0E-4, 6, 0.000100",
      "999999999.5, 1, 999999999.5",
      "1.0E9, 2, 1.0E9",
      "NaN, 2, NaN",
      "-Infinity, 2, -Infinity",
  })
  void shouldWriteFixedPointText(double value, int decimals, String expected) {
    assertEquals(expected, Fixed.append(new StringBuilder(), value, decimals).toString());
  }

  @Test
  void shouldRefuseAnUnsupportedNumberOfDecimals() {
    assertThrows(IllegalArgumentException.class, () -> Fixed.append(new StringBuilder(), 1, 10));
  }
}
