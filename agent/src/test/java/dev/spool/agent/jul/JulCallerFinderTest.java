package dev.spool.agent.jul;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.ResourceBundle;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Differential: the frame {@link JulCallerFinder} finds against the JDK's own inference
 * ({@code LogRecord.getSourceClassName()}/{@code getSourceMethodName()}), both asked from a
 * handler's {@code publish}, for the ways applications reach a JUL logger: direct calls, a
 * {@code LogRecord} of their own, wrapper classes, reflection, lambdas and method references,
 * method handles, the {@code System.Logger} bridge and their own {@code System.Logger}s (a chain
 * deeper than the walk's first batch), a {@code Logger} subclass, constructors and static
 * initialisers, other threads (virtual ones where the JDK has them), suppliers, and no logger
 * frame at all.
 */
class JulCallerFinderTest {

    private static final Logger LOGGER = Logger.getLogger("spool.test.callerfinder");
    private final Comparing handler = new Comparing();

    /** Records what each inference says for every record it sees. */
    static final class Comparing extends Handler {
        final List<String> ours = new ArrayList<>();
        final List<String> jdks = new ArrayList<>();

        @Override
        public synchronized void publish(LogRecord record) {
            StackWalker.StackFrame f = JulCallerFinder.find(); // first: the JDK's getters set the record's fields
            ours.add(f == null ? "null null" : f.getClassName() + " " + f.getMethodName());
            jdks.add(record.getSourceClassName() + " " + record.getSourceMethodName());
        }

        @Override
        public void flush() { }

        @Override
        public void close() { }
    }

    @BeforeEach
    void attach() {
        LOGGER.setUseParentHandlers(false);
        LOGGER.setLevel(Level.ALL);
        LOGGER.addHandler(handler);
    }

    @AfterEach
    void detach() {
        LOGGER.removeHandler(handler);
    }

    /** An application's own wrapper: the JDK reports the wrapper's method. */
    static final class AppWrapper {
        void info(String message) {
            LOGGER.info(message);
        }
    }

    /** An application's own System.Logger over JUL: the JDK skips it (and every frame of its class). */
    static final class AppSystemLogger implements System.Logger {
        private final int depth;

        AppSystemLogger(int depth) {
            this.depth = depth;
        }

        @Override
        public String getName() {
            return LOGGER.getName();
        }

        @Override
        public boolean isLoggable(Level level) {
            return true;
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
            if (depth > 0) {
                new AppSystemLogger(depth - 1).log(level, bundle, msg, thrown); // a chain past the first batch
            } else {
                LOGGER.log(java.util.logging.Level.INFO, msg, thrown);
            }
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String format, Object... params) {
            LOGGER.log(java.util.logging.Level.INFO, format, params);
        }
    }

    static final class SubLogger extends Logger {
        SubLogger() {
            super("spool.test.callerfinder.sub", null);
        }

        void mine(String message) {
            info(message);
        }
    }

    static final class Constructing {
        Constructing() {
            LOGGER.info("in a constructor");
        }
    }

    static final class Initialising {
        static {
            LOGGER.info("in a static initialiser");
        }

        static void touch() { }
    }

    @Test
    void shouldFindTheSameCallerAsTheJdkForEveryWayOfCallingALogger() throws Throwable {
        List<Runnable> calls = new ArrayList<>();
        calls.add(() -> LOGGER.info("direct"));
        calls.add(() -> LOGGER.log(Level.INFO, "params {0}", 1));
        calls.add(() -> LOGGER.log(new LogRecord(Level.INFO, "own record")));
        calls.add(() -> new AppWrapper().info("wrapped"));
        calls.add(() -> {
            Consumer<String> ref = LOGGER::info;
            ref.accept("method reference");
        });
        calls.add(() -> {
            Supplier<String> s = () -> "supplied";
            LOGGER.log(Level.INFO, s);
        });
        calls.add(() -> List.of(1, 2).forEach(i -> LOGGER.info("in forEach " + i)));
        calls.add(() -> System.getLogger(LOGGER.getName()).log(System.Logger.Level.INFO, "through System.Logger"));
        calls.add(() -> System.getLogger(LOGGER.getName()).log(System.Logger.Level.INFO, "with {0}", "param"));
        calls.add(() -> new AppSystemLogger(0).log(System.Logger.Level.INFO, "own System.Logger"));
        calls.add(() -> new AppSystemLogger(40).log(System.Logger.Level.INFO, "own System.Logger, 40 deep"));
        calls.add(() -> {
            SubLogger sub = new SubLogger();
            sub.setUseParentHandlers(false);
            sub.addHandler(handler);
            sub.mine("subclass");
        });
        calls.add(Constructing::new);
        calls.add(Initialising::touch);
        calls.add(() -> handler.publish(new LogRecord(Level.INFO, "no logger frame")));
        calls.add(() -> reflectively("info"));
        calls.add(() -> viaMethodHandle());
        calls.add(() -> onAnotherThread(false));
        calls.add(() -> onAnotherThread(true));
        calls.add(() -> recurse(60));
        for (int i = 0; i < calls.size(); i++) {
            int before = handler.ours.size();
            calls.get(i).run();
            assertTrue(handler.ours.size() > before, "call " + i + " reached the handler");
        }
        assertEquals(handler.jdks, handler.ours);
        System.out.println("callers found: " + handler.jdks);
        assertTrue(handler.jdks.contains("null null"), "the no-logger case ran: " + handler.jdks);
        assertTrue(handler.jdks.stream().anyMatch(s -> s.contains("AppWrapper info")), handler.jdks.toString());
    }

    private static void reflectively(String method) {
        try {
            // past the JDK's inflation threshold (15): native accessors first, then generated ones
            for (int i = 0; i < 20; i++) {
                Logger.class.getMethod(method, String.class).invoke(LOGGER, "reflection " + i);
                AppWrapper.class.getDeclaredMethod("info", String.class).invoke(new AppWrapper(), "reflected wrapper " + i);
                Constructing.class.getDeclaredConstructor().newInstance();
            }
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    private static void viaMethodHandle() {
        try {
            MethodHandle mh = MethodHandles.lookup().findVirtual(Logger.class, "info", MethodType.methodType(void.class, String.class));
            mh.invoke(LOGGER, "method handle");
            mh.bindTo(LOGGER).invokeWithArguments("bound method handle");
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    private static void onAnotherThread(boolean virtual) {
        Runnable r = () -> LOGGER.info(virtual ? "virtual thread" : "platform thread");
        try {
            Thread t;
            if (virtual) {
                Object builder;
                try {
                    builder = Thread.class.getMethod("ofVirtual").invoke(null);
                } catch (NoSuchMethodException e) {
                    r.run(); // a JDK without virtual threads: the same call here
                    return;
                }
                t = (Thread) Class.forName("java.lang.Thread$Builder").getMethod("start", Runnable.class).invoke(builder, r);
            } else {
                t = new Thread(r);
                t.start();
            }
            t.join();
        } catch (ReflectiveOperationException | InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private static void recurse(int depth) {
        if (depth > 0) {
            recurse(depth - 1);
        } else {
            LOGGER.warning("deep in the stack");
        }
    }
}
