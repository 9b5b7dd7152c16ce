package dev.spool.agent.internal;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.IllegalClassFormatException;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * The agent's transformer: a set lookup of the class name on each class load; only the target
 * classes (exact names) reach the weaver ({@link AsmWeaver}). The weaver is built on a daemon
 * thread started by {@link #install}, in parallel with the host's own startup, so premain returns
 * at once; the first target class to load waits for that build if it is not finished. A host that
 * never touches Jackson, JUL file handlers, Logback or an emitter never waits for it. The first
 * target class also starts the warm-up ({@link Warmup}) on a daemon thread of its own.
 *
 * <p>Thread-safe: the delegate is built once; a target loaded by the building thread itself
 * is left unchanged rather than deadlock.
 */
final class LazyTransformer implements ClassFileTransformer {

    private final Set<String> targets; // internal names, e.g. java/util/logging/FileHandler
    /** Targets always loaded before premain (the JDK's file classes): retransformed later, on a thread of their own. */
    private final Set<String> afterBuild;
    /** The targets whose first transformation starts that retransformation (Jackson's: only a Jackson host needs it). */
    private final Set<String> afterBuildTriggers;
    /** Runs once the retransformation ended (woven or refused). */
    private final Runnable afterBuildDone;
    private final AtomicBoolean afterBuildStarted = new AtomicBoolean();
    private volatile Instrumentation inst;
    private final Supplier<ClassFileTransformer> factory;
    private final AgentControl control;
    private final Runnable warmup;
    private final AtomicBoolean warmupStarted = new AtomicBoolean();
    private final ThreadLocal<Boolean> building = new ThreadLocal<>();
    private final FutureTask<ClassFileTransformer> build = new FutureTask<>(this::build);
    private volatile ClassFileTransformer delegate;

    /**
     * {@code warmup} runs once, on a daemon thread of its own started when the first target class
     * appears (a host that never loads one never pays for it); nothing waits for it.
     */
    LazyTransformer(Set<String> targets, Supplier<ClassFileTransformer> factory, AgentControl control, Runnable warmup) {
        this(targets, Set.of(), Set.of(), () -> { }, factory, control, warmup);
    }

    /**
     * @param afterBuild targets (also in {@code targets}) that are loaded already: retransformed on a
     *     daemon thread of their own ({@code spool-file-weave}) once the first of {@code triggers} is
     *     transformed and the weaver is built, so neither premain nor a host that never loads a
     *     trigger pays for it; {@code done} runs when that ends (woven or refused)
     */
    LazyTransformer(Set<String> targets, Set<String> afterBuild, Set<String> triggers, Runnable done,
                    Supplier<ClassFileTransformer> factory, AgentControl control, Runnable warmup) {
        this.afterBuild = Set.copyOf(afterBuild);
        this.afterBuildTriggers = Set.copyOf(triggers);
        this.afterBuildDone = done;
        this.targets = Set.copyOf(targets);
        this.factory = factory;
        this.control = control;
        this.warmup = warmup;
    }

    /** Registers this transformer and retransforms the targets already loaded (dynamic attach, early JUL use). */
    void install(Instrumentation inst) {
        this.inst = inst;
        Thread builder = new Thread(build, "spool-instrumentation-build");
        builder.setDaemon(true);
        builder.start();
        inst.addTransformer(this, true);
        List<Class<?>> loaded = new ArrayList<>();
        for (Class<?> c : inst.getAllLoadedClasses()) {
            String name = c.getName().replace('.', '/');
            if (targets.contains(name) && !afterBuild.contains(name) && inst.isModifiableClass(c)) {
                loaded.add(c);
            }
        }
        if (!loaded.isEmpty()) {
            try {
                inst.retransformClasses(loaded.toArray(new Class<?>[0]));
            } catch (Exception | LinkageError e) {
                control.error("retransform", "cannot instrument the already loaded " + loaded + " (" + e + "): left unchanged");
            }
        }
    }

    private ClassFileTransformer build() {
        building.set(Boolean.TRUE);
        dev.spool.bridge.Hooks.markSpoolThread();
        try {
            long start = System.nanoTime();
            ClassFileTransformer d = factory.get();
            AgentLog.debug("instrumentation built in " + (System.nanoTime() - start) / 1_000_000 + " ms");
            return d;
        } catch (RuntimeException | LinkageError e) {
            control.error("weaver", "cannot build the instrumentation (" + e + "): the application runs uninstrumented");
            return null;
        } finally {
            building.remove();
        }
    }

    /**
     * Starts the retransformation of the {@link #afterBuild} classes now if no trigger did (the first
     * routed log stream: {@code RoutedLogReads}); returns at once, idempotent.
     */
    void weaveFilesNow() {
        startAfterBuild();
    }

    /** At the first trigger: retransforms the {@link #afterBuild} classes on a daemon thread of their own. */
    private void startAfterBuild() {
        if (afterBuild.isEmpty() || !afterBuildStarted.compareAndSet(false, true)) {
            return;
        }
        Thread t = new Thread(null, () -> {
            dev.spool.bridge.Hooks.markSpoolThread();
            try {
                if (delegate() != null) {
                    retransformAfterBuild();
                }
            } finally {
                afterBuildDone.run();
            }
        }, "spool-file-weave", 0, false);
        t.setDaemon(true);
        t.start();
    }

    /** Retransforms the loaded {@link #afterBuild} classes. */
    private void retransformAfterBuild() {
        List<Class<?>> loaded = new ArrayList<>();
        for (Class<?> c : inst.getAllLoadedClasses()) {
            if (afterBuild.contains(c.getName().replace('.', '/')) && inst.isModifiableClass(c)) {
                loaded.add(c);
            }
        }
        long start = System.nanoTime();
        try {
            inst.retransformClasses(loaded.toArray(new Class<?>[0]));
            AgentLog.debug("retransformed " + loaded.size() + " JDK file classes in " + (System.nanoTime() - start) / 1_000_000 + " ms");
        } catch (Exception | LinkageError e) {
            control.error("retransform", "cannot instrument the JDK's file operations " + loaded + " (" + e
                    + "): the host's own reads, writes, moves and deletions of buffered files act on the disk as it is");
        }
    }

    private ClassFileTransformer delegate() {
        if (!warmupStarted.get() && warmupStarted.compareAndSet(false, true)) {
            Thread t = new Thread(null, () -> {
                dev.spool.bridge.Hooks.markSpoolThread();
                warmup.run();
            }, "spool-warmup", 0, false); // no copy of the host thread's inheritable thread locals
            t.setDaemon(true);
            t.start();
        }
        ClassFileTransformer d = delegate;
        if (d != null || building.get() != null) {
            return d;
        }
        boolean interrupted = false;
        while (true) {
            try {
                d = build.get();
                break;
            } catch (InterruptedException e) {
                interrupted = true; // a class load must not be cut short; keep waiting, restore the flag after
            } catch (ExecutionException e) {
                d = null;
                break;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        delegate = d;
        return d;
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> redefined,
                            ProtectionDomain domain, byte[] bytes) throws IllegalClassFormatException {
        if (className == null || !targets.contains(className)) {
            return null;
        }
        if (afterBuildTriggers.contains(className)) {
            startAfterBuild();
        }
        ClassFileTransformer d = afterBuild.contains(className) ? delegate : delegate(); // no wait, no warm-up for those
        return d == null ? null : d.transform(module, loader, className, redefined, domain, bytes);
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> redefined, ProtectionDomain domain,
                            byte[] bytes) throws IllegalClassFormatException {
        if (className == null || !targets.contains(className)) {
            return null;
        }
        if (afterBuildTriggers.contains(className)) {
            startAfterBuild();
        }
        ClassFileTransformer d = afterBuild.contains(className) ? delegate : delegate(); // no wait, no warm-up for those
        return d == null ? null : d.transform(loader, className, redefined, domain, bytes);
    }
}
