package dev.spool.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AppArgsTest {

  @Test
  void shouldParseEveryOption() throws UsageException {
    AppArgs args = AppArgs.parse("--out", "x/y", "--jobs", "3", "--steps", "70", "--threads", "5",
        "--hold");
    assertEquals(Path.of("x/y"), args.out());
    assertEquals(3, args.jobs());
    assertEquals(70, args.steps());
    assertEquals(5, args.threads());
    assertTrue(args.hold());
    assertFalse(args.help());
  }

  @Test
  void shouldUseDefaultsForWhatIsNotGiven() throws UsageException {
    AppArgs args = AppArgs.parse("--out", "d");
    assertEquals(AppArgs.DEFAULT_JOBS, args.jobs());
    assertEquals(AppArgs.DEFAULT_STEPS, args.steps());
    assertEquals(AppArgs.DEFAULT_THREADS, args.threads());
    assertFalse(args.hold());
  }

  @Test
  void shouldAnswerHelpWithoutAnOutFolder() throws UsageException {
    assertTrue(AppArgs.parse("--help").help());
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', value = {
      "--jobs 3                         | --out DIR is required",
      "--out                            | --out needs a value",
      "--out d --jobs                   | --jobs needs a value",
      "--out d --jobs three             | --jobs needs a whole number, got: three",
      "--out d --steps 0                | --steps must be between 1 and 10000000, got: 0",
      "--out d --threads -2             | --threads must be between 1 and 256, got: -2",
      "--out d --threads 257            | --threads must be between 1 and 256, got: 257",
      "--out d --jobs 100001            | --jobs must be between 1 and 100000, got: 100001",
      "--out d --jobs 99999999999       | --jobs needs a whole number, got: 99999999999",
      "--out d --fast                   | unknown argument: --fast",
      "stray                            | unknown argument: stray",
  })
  void shouldRejectBadArgumentsNamingTheProblem(String line, String message) {
    UsageException e = assertThrows(UsageException.class, () -> AppArgs.parse(line.split(" ")));
    assertEquals(message, e.getMessage());
  }
}
