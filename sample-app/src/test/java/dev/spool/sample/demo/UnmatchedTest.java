package dev.spool.sample.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class UnmatchedTest {

  @Test
  void shouldMatchTheSameItemsInAnyOrder() {
    assertTrue(Unmatched.of(List.of("a", "b", "a"), List.of("a", "a", "b")).none());
  }

  @Test
  void shouldCountDuplicatesAsSeparateItems() {
    Unmatched u = Unmatched.of(List.of("a", "b", "a"), List.of("b", "a", "c", "b"));
    assertEquals(List.of(2), u.inA(), "the second a has no partner");
    assertEquals(List.of(2, 3), u.inB(), "c and the second b have no partner");
  }
}
