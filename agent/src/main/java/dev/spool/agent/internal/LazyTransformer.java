package dev.spool.agent.internal;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.IllegalClassFormatException;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The agent's only transformer as long as no target class has appeared: a set lookup of the class
 * name on each class load (no ByteBuddy class is loaded). The first time a target class (by exact
 * name) is loaded or found already loaded, ByteBuddy's transformer is built and every later target
 * goes through it. So a host that never touches Jackson, JUL file handlers, Logback or an emitter
 * pays nothing beyond this lookup at startup.
 *
 * <p>Thread-safe: the delegate is built once under a lock; a target loaded by the building thread
 * while it builds (which ByteBuddy does not do) would be left unchanged rather than deadlock.
 */
final class LazyTransformer implements ClassFileTransformer {

    private final Set<String> targets; // internal names, e.g. java/util/logging/FileHandler
    private final Supplier<ClassFileTransformer> factory;
    private final AgentControl control;
    private final ThreadLocal<Boolean> building = new ThreadLocal<>();
    private volatile ClassFileTransformer delegate;
    private volatile boolean failed;

    LazyTransformer(Set<String> targets, Supplier<ClassFileTransformer> factory, AgentControl control) {
        this.targets = Set.copyOf(targets);
        this.factory = factory;
        this.control = control;
    }

    /** Registers this transformer and retransforms the targets already loaded (dynamic attach, early JUL use). */
    void install(Instrumentation inst) {
        inst.addTransformer(this, true);
        List<Class<?>> loaded = new ArrayList<>();
        for (Class<?> c : inst.getAllLoadedClasses()) {
            if (targets.contains(c.getName().replace('.', '/')) && inst.isModifiableClass(c)) {
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

    private ClassFileTransformer delegate() {
        ClassFileTransformer d = delegate;
        if (d != null || failed || building.get() != null) {
            return d;
        }
        synchronized (this) {
            if (delegate == null && !failed) {
                building.set(Boolean.TRUE);
                try {
                    long start = System.nanoTime();
                    delegate = factory.get();
                    AgentLog.debug("instrumentation built in " + (System.nanoTime() - start) / 1_000_000 + " ms");
                } catch (RuntimeException | LinkageError e) {
                    failed = true;
                    control.error("weaver", "cannot build the instrumentation (" + e + "): the application runs uninstrumented");
                } finally {
                    building.remove();
                }
            }
            return delegate;
        }
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> redefined,
                            ProtectionDomain domain, byte[] bytes) throws IllegalClassFormatException {
        if (className == null || !targets.contains(className)) {
            return null;
        }
        ClassFileTransformer d = delegate();
        return d == null ? null : d.transform(module, loader, className, redefined, domain, bytes);
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> redefined, ProtectionDomain domain,
                            byte[] bytes) throws IllegalClassFormatException {
        if (className == null || !targets.contains(className)) {
            return null;
        }
        ClassFileTransformer d = delegate();
        return d == null ? null : d.transform(loader, className, redefined, domain, bytes);
    }
}
