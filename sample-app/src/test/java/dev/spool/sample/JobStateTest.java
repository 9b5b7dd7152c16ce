package dev.spool.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JobStateTest {
  private final ObjectMapper mapper = new ObjectMapper();

  @Test
  void shouldContinueExactlyWhenResumedFromItsJsonDocument() throws Exception {
    JobParameters parameters = JobParameters.sweep(7);
    JobState straight = JobState.start(parameters);
    JobState resumed = JobState.start(parameters);
    for (int i = 0; i < 60; i++) {
      straight.advance();
      if (i < 30) {
        resumed.advance();
      }
    }
    String checkpoint = mapper.writeValueAsString(resumed.toDocument());
    resumed = JobState.fromDocument(parameters.id(), mapper.readValue(checkpoint, Map.class));
    for (int i = 0; i < 30; i++) {
      resumed.advance();
    }
    assertEquals(mapper.writeValueAsString(straight.toDocument()),
        mapper.writeValueAsString(resumed.toDocument()));
    assertEquals(straight.logLine(), resumed.logLine());
    assertEquals(mapper.writeValueAsString(straight.record()),
        mapper.writeValueAsString(resumed.record()));
  }

  @Test
  void shouldNameTheFieldOfABrokenDocument() throws Exception {
    JobParameters parameters = JobParameters.sweep(0);
    JobState state = JobState.start(parameters);
    state.advance();
    @SuppressWarnings("unchecked")
    Map<String, Object> doc = mapper.readValue(mapper.writeValueAsString(state.toDocument()), Map.class);
    ((Map<String, Object>) doc.get("statistics")).remove("m2");
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> JobState.fromDocument(parameters.id(), doc));
    assertEquals("document field statistics.m2 is missing", e.getMessage());
    IllegalStateException other = assertThrows(IllegalStateException.class,
        () -> JobState.fromDocument("job-999", doc));
    assertTrue(other.getMessage().contains("names job job-000"), other.getMessage());
  }

  @Test
  void shouldKeepTheLogLineFreeOfTimestampsAndLocale() {
    JobState state = JobState.start(JobParameters.sweep(1));
    state.advance();
    assertTrue(state.logLine().matches("job-001 step=1 t=0\\.01 mean=-?\\d+\\.\\d{6} .*"),
        state.logLine());
  }
}
