package dev.spool.agent.jul;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.EnumSet;
import java.util.Spliterator;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The frame {@code LogRecord.inferCaller()} chooses, found with the JDK's rules on a cheaper walk:
 * frames are skipped until the first {@code java.util.logging.Logger} (or
 * {@code sun.util.logging.PlatformLogger*}) frame, then the first frame that is not logging
 * machinery is the caller — machinery being a class that implements {@code System.Logger}, or
 * whose name starts with {@code sun.util.logging.}, {@code sun.rmi.runtime.Log},
 * {@code jdk.internal.logger.} (but not {@code jdk.internal.logger.BootstrapLogger$LogEvent}),
 * {@code java.util.logging.}, {@code java.lang.invoke.MethodHandle},
 * {@code java.security.AccessController}, or a prefix listed in {@code jdk.logger.packages}
 * (JDK 17–25: {@code LogRecord.CallerFinder} and {@code SimpleConsoleLogger.Formatting.isFilteredFrame}).
 * Reflection frames ({@code Method}, {@code Constructor}, the {@code jdk.internal.reflect}
 * accessors, {@code java.lang.invoke.LambdaForm*}), which the JDK's walker leaves out, are shown
 * by this walker ({@code SHOW_REFLECT_FRAMES}) and skipped by {@link #isReflectionFrame} only
 * among the caller's candidates: the JDK's walker asks its own reflection check twice for every
 * frame it passes (a tenth of the caller's samples on issue 13's workload); hidden frames are left
 * out by the VM exactly as for the JDK's walker.
 *
 * <p>Why not the JDK's: its walker starts with a batch of 8 frames and refills a larger one
 * (every slot a new frame object), and four more frames of its own sit above the logger; from the
 * capture the caller is 9 frames down ({@code log(Level, String, Object[])}; 10 through
 * {@code info(String)}), inside one batch of {@link #ESTIMATED_DEPTH} here (two slots of a batch
 * are the walker's own) (JFR on issue 13's workload: the JDK's walk was three quarters of
 * the caller's samples; this one costs about a fifth less, see docs/BENCHMARKS.md).
 * Why not a {@code Throwable} resolved on the writer: filling it walks the whole stack (about
 * 30 ns a frame: 3 µs at 100 frames, more than this walk), resolving it on the writer costs about
 * 150 ns a frame (15 µs per record at 100 frames: the writer would fall behind), and it carries
 * no class, so the {@code System.Logger} rule could not be decided.
 *
 * <p>{@code jdk.logger.packages} is read once, at this class's initialisation (the JDK also reads
 * it once, when its own class initialises). Thread-safe (stateless; a finder per walk).
 */
final class JulCallerFinder {

    /** Frames fetched in the walk's first batch: enough for a direct call from a captured handler. */
    static final int ESTIMATED_DEPTH = 12;

    static final StackWalker WALKER = StackWalker.getInstance(
            EnumSet.of(StackWalker.Option.RETAIN_CLASS_REFERENCE, StackWalker.Option.SHOW_REFLECT_FRAMES), ESTIMATED_DEPTH);
    private static final String[] SKIPS = skips(System.getProperty("jdk.logger.packages"));

    private JulCallerFinder() {}

    /** The caller's frame as {@code LogRecord.inferCaller()} called here would find it, or null (no logger frame). */
    static StackWalker.StackFrame find() {
        return WALKER.walk(FIND);
    }

    /**
     * The walk's function: {@code WALKER.walk(FIND)} where a frame fewer counts ({@link JulSources#infer}).
     * It steps the walk's own spliterator rather than building a {@code filter().findFirst()}
     * pipeline on it: the same frames in the same order, stopping at the first match, without the
     * pipeline's stage objects and sink chain per record.
     */
    static final Function<Stream<StackWalker.StackFrame>, StackWalker.StackFrame> FIND = frames -> {
        Finder finder = new Finder();
        Spliterator<StackWalker.StackFrame> it = frames.spliterator();
        while (finder.found == null && it.tryAdvance(finder)) {
            // each frame is handed to the finder until it has found the caller
        }
        return finder.found;
    };

    /** A stateful matcher (one per walk), as the JDK's {@code CallerFinder}: keeps the first frame that is the caller. */
    private static final class Finder implements Consumer<StackWalker.StackFrame> {
        private boolean lookingForLogger = true;
        StackWalker.StackFrame found;

        @Override
        public void accept(StackWalker.StackFrame frame) {
            String name = frame.getClassName();
            if (lookingForLogger) {
                lookingForLogger = !isLoggerImplFrame(name);
            } else if (!isReflectionFrame(frame.getDeclaringClass(), name) && !isFilteredFrame(frame, name)) {
                found = frame;
            }
        }
    }

    static boolean isLoggerImplFrame(String name) {
        return name.equals("java.util.logging.Logger") || name.startsWith("sun.util.logging.PlatformLogger");
    }

    /**
     * A frame the JDK's walker would not show (its {@code isReflectionFrame}, JDK 17): {@code Method},
     * {@code Constructor}, a {@code MethodAccessor} or {@code ConstructorAccessor} (all of them in
     * {@code jdk.internal.reflect}, generated ones included), a {@code java.lang.invoke.LambdaForm} class.
     */
    static boolean isReflectionFrame(Class<?> c, String name) {
        return c == Method.class || c == Constructor.class || name.startsWith("jdk.internal.reflect.")
                || name.startsWith("java.lang.invoke.LambdaForm");
    }

    static boolean isFilteredFrame(StackWalker.StackFrame frame, String name) {
        if (System.Logger.class.isAssignableFrom(frame.getDeclaringClass())) {
            return true;
        }
        char c = name.length() < 12 ? 0 : name.charAt(0);
        if (c == 's') {
            if (name.startsWith("sun.util.logging.") || name.startsWith("sun.rmi.runtime.Log")) {
                return true;
            }
        } else if (c == 'j') {
            if (name.startsWith("jdk.internal.logger.BootstrapLogger$LogEvent")) {
                return false;
            }
            if (name.startsWith("jdk.internal.logger.") || name.startsWith("java.util.logging.")
                    || name.startsWith("java.lang.invoke.MethodHandle") || name.startsWith("java.security.AccessController")) {
                return true;
            }
        }
        for (String skip : SKIPS) {
            if (!skip.isEmpty() && name.startsWith(skip)) {
                return true;
            }
        }
        return false;
    }

    private static String[] skips(String packages) {
        return packages == null ? new String[0] : packages.split(",");
    }
}
