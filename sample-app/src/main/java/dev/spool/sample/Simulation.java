package dev.spool.sample;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Runs the sweep: every job advances in slices of {@link #SLICE_STEPS} steps on a fixed pool of
 * worker threads. A slice may run on any worker, so it starts by restoring its job from the job's
 * document on disk ({@code readValue(File)}), as a checkpointing scheduler would; every step then
 * saves the document ({@code writeValue(File)}), logs a line and emits a record. The slices of
 * one job run one after another; different jobs run in parallel. Those outputs are the app's real
 * files ({@link FileOutputs}) unless a benchmark floor gives others ({@link FloorApp}).
 */
final class Simulation {
  static final int SLICE_STEPS = 50;

  private final AppArgs args;
  private final Progress progress;
  private final LongAdder docWrites = new LongAdder();
  private final LongAdder logRecords = new LongAdder();
  private final LongAdder emits = new LongAdder();
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private final JobOutputs outputs;
  private ExecutorService workers;
  private CountDownLatch finishedJobs;

  /** A run whose jobs write the app's real files ({@link FileOutputs}). */
  Simulation(AppArgs args, PrintStream progressOut) {
    this(args, progressOut, new FileOutputs());
  }

  /** A run whose jobs write to {@code outputs}, opened in the run's folder when the run starts. */
  Simulation(AppArgs args, PrintStream progressOut, JobOutputs outputs) {
    this.args = args;
    this.outputs = outputs;
    this.progress = new Progress((long) args.jobs() * args.steps(), progressOut);
  }

  /** Runs every job to its last step; throws the first failure of any job. */
  RunSummary run() throws Exception {
    long start = System.nanoTime();
    Path out = args.out();
    for (int i = 0; i < args.jobs(); i++) {
      Files.createDirectories(out.resolve("jobs").resolve(JobParameters.idOf(i)));
    }
    outputs.open(out);
    workers = Executors.newFixedThreadPool(args.threads(), new WorkerThreads());
    finishedJobs = new CountDownLatch(args.jobs());
    try {
      for (int i = 0; i < args.jobs(); i++) {
        JobParameters parameters = JobParameters.sweep(i);
        workers.execute(() -> slice(parameters, 0));
      }
      finishedJobs.await();
    } finally {
      workers.shutdownNow();
      outputs.close();
    }
    Throwable first = failure.get();
    if (first instanceof Exception e) {
      throw e;
    } else if (first != null) {
      throw new IllegalStateException("a job failed", first);
    }
    long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
    return new RunSummary(elapsedMillis, docWrites.sum(), logRecords.sum(), emits.sum());
  }

  private void slice(JobParameters parameters, long fromStep) {
    try {
      if (failure.get() != null) {
        finishedJobs.countDown();
        return;
      }
      File doc = args.out().resolve("jobs").resolve(parameters.id()).resolve("doc.json").toFile();
      JobState state = fromStep == 0
          ? JobState.start(parameters)
          : JobState.fromDocument(parameters.id(), outputs.restore(doc));
      if (state.step() != fromStep) {
        throw new IllegalStateException(doc + " is at step " + state.step() + ", expected " + fromStep);
      }
      long until = Math.min(fromStep + SLICE_STEPS, args.steps());
      while (state.step() < until) {
        step(state, doc);
      }
      if (until < args.steps()) {
        workers.execute(() -> slice(parameters, until));
      } else {
        finishedJobs.countDown();
      }
    } catch (Throwable t) {
      failure.compareAndSet(null, t);
      finishedJobs.countDown();
    }
  }

  private void step(JobState state, File doc) throws IOException {
    state.advance();
    outputs.save(doc, state.toDocument());
    docWrites.increment();
    outputs.log(state.logLine());
    logRecords.increment();
    outputs.emit(state.record());
    emits.increment();
    progress.stepDone();
  }

  /** Named, non-daemon workers. */
  private static final class WorkerThreads implements ThreadFactory {
    private final AtomicInteger next = new AtomicInteger(1);

    @Override
    public Thread newThread(Runnable r) {
      return new Thread(r, "sim-worker-" + next.getAndIncrement());
    }
  }
}
