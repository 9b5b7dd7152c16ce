package dev.spool.sample.demo;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintStream;
import java.util.Locale;
import java.util.OptionalLong;

/** Prints a comparison as a side-by-side table and one verdict line per check. */
final class SideBySide {
  private static final String ROW = "  %-22s %16s %16s%s%n";

  private SideBySide() {}

  static void print(Comparison c, PrintStream out) {
    out.printf(Locale.ROOT, ROW, "", c.a().label(), c.b().label(), "");
    OptionalLong wallA = c.a().wallMillis();
    OptionalLong wallB = c.b().wallMillis();
    if (wallA.isPresent() && wallB.isPresent()) {
      out.printf(Locale.ROOT, ROW, "wall time (process)", millis(wallA.getAsLong()),
          millis(wallB.getAsLong()), speedUp(wallA.getAsLong(), wallB.getAsLong()));
    }
    if (c.summaryA() != null && c.summaryB() != null) {
      long elapsedA = c.summaryA().path("elapsedMillis").asLong();
      long elapsedB = c.summaryB().path("elapsedMillis").asLong();
      String note = wallA.isPresent() ? "" : speedUp(elapsedA, elapsedB);
      out.printf(Locale.ROOT, ROW, "app elapsedMillis", millis(elapsedA), millis(elapsedB), note);
      row(out, "doc writes", c.summaryA(), c.summaryB(), "docWrites");
      row(out, "log records", c.summaryA(), c.summaryB(), "logRecords");
      row(out, "emitted records", c.summaryA(), c.summaryB(), "emits");
    }
    out.println();
    for (CheckResult check : c.checks()) {
      out.printf(Locale.ROOT, "  %-10s %-5s %s%n", check.name(), check.passed() ? "same" : "DIFF",
          check.passed() ? check.detail() : check.difference().orElseThrow());
    }
    out.println();
    if (c.identical()) {
      out.println("VERDICT: same results. Every doc.json is byte-identical, " + LogLines.FILE
          + " holds the same lines, the emitted records are the same set.");
    } else {
      out.println("VERDICT: the runs differ. First difference: " + c.firstDifference().orElseThrow());
    }
  }

  private static void row(PrintStream out, String name, JsonNode a, JsonNode b, String key) {
    out.printf(Locale.ROOT, ROW, name, count(a.path(key).asLong()), count(b.path(key).asLong()), "");
  }

  private static String millis(long ms) {
    return String.format(Locale.ROOT, "%,d ms", ms);
  }

  private static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  /** "  5.4x faster" (or slower): how many times less time the second run took. */
  static String speedUp(long before, long after) {
    if (before <= 0 || after <= 0) {
      return "";
    }
    double ratio = (double) before / after;
    return ratio >= 1
        ? String.format(Locale.ROOT, "   speed-up %.1fx", ratio)
        : String.format(Locale.ROOT, "   %.1fx slower", 1 / ratio);
  }
}
