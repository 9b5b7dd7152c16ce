package dev.spool.sample.demo;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Matches two lists as multisets: every key of {@code a} pairs with one equal key of {@code b}.
 * What is left over on each side, as 0-based positions in file order, is the difference.
 */
record Unmatched(List<Integer> inA, List<Integer> inB) {

  static Unmatched of(List<String> a, List<String> b) {
    Map<String, ArrayDeque<Integer>> open = new HashMap<>();
    for (int i = 0; i < a.size(); i++) {
      open.computeIfAbsent(a.get(i), k -> new ArrayDeque<>()).add(i);
    }
    List<Integer> inB = new ArrayList<>();
    for (int j = 0; j < b.size(); j++) {
      ArrayDeque<Integer> candidates = open.get(b.get(j));
      if (candidates == null || candidates.isEmpty()) {
        inB.add(j);
      } else {
        candidates.poll();
      }
    }
    List<Integer> inA = new ArrayList<>();
    for (ArrayDeque<Integer> left : open.values()) {
      inA.addAll(left);
    }
    inA.sort(null);
    return new Unmatched(inA, inB);
  }

  boolean none() {
    return inA.isEmpty() && inB.isEmpty();
  }
}
