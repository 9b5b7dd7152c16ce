package dev.spool.sample;

/** What a run did, printed as its one JSON line. */
record RunSummary(long elapsedMillis, long docWrites, long logRecords, long emits) {

  String toJson() {
    return "{\"elapsedMillis\":" + elapsedMillis + ",\"docWrites\":" + docWrites
        + ",\"logRecords\":" + logRecords + ",\"emits\":" + emits + "}";
  }
}
