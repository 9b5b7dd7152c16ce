package dev.spool.sample.demo;

import java.util.Optional;

/**
 * The verdict of one check: what was compared ({@code detail}, e.g. "16 files, byte-identical")
 * and, when the runs differ, the first difference in words.
 */
public record CheckResult(String name, String detail, Optional<String> difference) {

  static CheckResult same(String name, String detail) {
    return new CheckResult(name, detail, Optional.empty());
  }

  static CheckResult differs(String name, String detail, String difference) {
    return new CheckResult(name, detail, Optional.of(difference));
  }

  public boolean passed() {
    return difference.isEmpty();
  }
}
