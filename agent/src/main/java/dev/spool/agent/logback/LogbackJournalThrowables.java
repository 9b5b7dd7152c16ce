package dev.spool.agent.logback;

import java.lang.invoke.MethodHandle;

import static dev.spool.agent.logback.LogbackJournalCodec.getter;

/**
 * The throwable tree and the stack frames of a {@link LogbackJournalCodec} payload, as they are
 * written on the caller's thread: Logback's own {@code IThrowableProxy} classes (a proxy, or one
 * rebuilt from a serialized event), read through the interface's getters; Logback's own frame proxy
 * and packaging data; a frame as the constructor rebuilds it with the same {@code toString}.
 *
 * <p>Thread-safe (immutable handles).
 */
final class LogbackJournalThrowables {
    private final Class<?> throwableProxy;
    private final Class<?> throwableProxyVO;
    private final Class<?> frameProxy;
    private final Class<?> packaging;
    private final MethodHandle tpClassName, tpMessage, tpOverriding, tpFrames, tpCommonFrames, tpCause, tpSuppressed, tpCyclic;
    private final MethodHandle frameElement, framePackaging, codeLocation, version, exact;

    LogbackJournalThrowables(Class<?> itp, Class<?> throwableProxy, Class<?> throwableProxyVO, Class<?> frameProxy,
                             Class<?> packaging) throws ReflectiveOperationException {
        this.throwableProxy = throwableProxy;
        this.throwableProxyVO = throwableProxyVO;
        this.frameProxy = frameProxy;
        this.packaging = packaging;
        tpClassName = getter(itp, "getClassName", Object.class);
        tpMessage = getter(itp, "getMessage", Object.class);
        // 1.4 has no overriding message (its proxies print class name and message): journaled as null there
        tpOverriding = LogbackJournalCodec.has(itp, "getOverridingMessage") ? getter(itp, "getOverridingMessage", Object.class) : null;
        tpFrames = getter(itp, "getStackTraceElementProxyArray", Object.class);
        tpCommonFrames = getter(itp, "getCommonFrames", int.class);
        tpCause = getter(itp, "getCause", Object.class);
        tpSuppressed = getter(itp, "getSuppressed", Object.class);
        tpCyclic = getter(itp, "isCyclic", boolean.class);
        frameElement = getter(frameProxy, "getStackTraceElement", Object.class);
        framePackaging = getter(frameProxy, "getClassPackagingData", Object.class);
        codeLocation = getter(packaging, "getCodeLocation", Object.class);
        version = getter(packaging, "getVersion", Object.class);
        exact = getter(packaging, "isExact", boolean.class);
    }

    /** The tree of {@code tp} (not null). */
    void write(LogbackJournalOut o, Object tp) throws Throwable {
        write(o, tp, 0, new int[1]);
    }

    private void write(LogbackJournalOut o, Object tp, int depth, int[] nodes) throws Throwable {
        Class<?> c = tp.getClass();
        if (c != throwableProxy && c != throwableProxyVO) {
            throw new IllegalArgumentException("a throwable proxy of class " + c.getName() + " is not Logback's own");
        }
        if (depth > LogbackJournalCodec.MAX_DEPTH || ++nodes[0] > LogbackJournalCodec.MAX_NODES) {
            throw new IllegalArgumentException("the throwable nests deeper than " + LogbackJournalCodec.MAX_DEPTH + " or has more than "
                    + LogbackJournalCodec.MAX_NODES + " parts");
        }
        o.str((String) (Object) tpClassName.invokeExact(tp));
        o.str((String) (Object) tpMessage.invokeExact(tp));
        o.str(tpOverriding == null ? null : (String) (Object) tpOverriding.invokeExact(tp));
        o.bool((boolean) tpCyclic.invokeExact(tp));
        o.i32((int) tpCommonFrames.invokeExact(tp));
        Object[] frames = (Object[]) (Object) tpFrames.invokeExact(tp);
        if (frames == null) {
            throw new IllegalArgumentException("a throwable proxy without a frame array");
        }
        o.i32(frames.length);
        for (Object f : frames) {
            if (f == null || f.getClass() != frameProxy) {
                throw new IllegalArgumentException("a frame proxy of class " + (f == null ? null : f.getClass().getName()));
            }
            writeFrame(o, (StackTraceElement) (Object) frameElement.invokeExact(f));
            Object p = (Object) framePackaging.invokeExact(f);
            o.bool(p != null);
            if (p != null) {
                if (p.getClass() != packaging) {
                    throw new IllegalArgumentException("packaging data of class " + p.getClass().getName());
                }
                o.str((String) (Object) codeLocation.invokeExact(p));
                o.str((String) (Object) version.invokeExact(p));
                o.bool((boolean) exact.invokeExact(p));
            }
        }
        Object cause = (Object) tpCause.invokeExact(tp);
        o.bool(cause != null);
        if (cause != null) {
            write(o, cause, depth + 1, nodes);
        }
        Object[] suppressed = (Object[]) (Object) tpSuppressed.invokeExact(tp);
        o.i32(suppressed == null ? -1 : suppressed.length);
        if (suppressed != null) {
            for (Object s : suppressed) {
                if (s == null) {
                    throw new IllegalArgumentException("a null suppressed throwable proxy");
                }
                write(o, s, depth + 1, nodes);
            }
        }
    }

    static void writeFrames(LogbackJournalOut o, Object frames) {
        if (!(frames instanceof StackTraceElement[] a)) {
            o.i32(-1);
            return;
        }
        o.i32(a.length);
        for (StackTraceElement e : a) {
            writeFrame(o, e);
        }
    }

    /**
     * A frame as the constructor rebuilds it with the same {@code toString}: the JDK leaves out the
     * class loader name of a built-in loader and the version of a JDK module (flags a constructed
     * frame lacks), so those are stored as null where the original's text has none.
     */
    private static void writeFrame(LogbackJournalOut o, StackTraceElement e) {
        if (e == null) {
            throw new IllegalArgumentException("a null stack frame");
        }
        String loader = e.getClassLoaderName();
        String module = e.getModuleName();
        String ver = e.getModuleVersion();
        if (loader != null || ver != null) {
            String text = e.toString();
            found:
            {
                for (int i = 0; i < 4; i++) {
                    String l = (i & 1) == 0 ? loader : null;
                    String v = (i & 2) == 0 ? ver : null;
                    if (new StackTraceElement(l, module, v, e.getClassName(), e.getMethodName(), e.getFileName(),
                            e.getLineNumber()).toString().equals(text)) {
                        loader = l;
                        ver = v;
                        break found;
                    }
                }
                throw new IllegalArgumentException("no constructed stack frame prints as " + text);
            }
        }
        o.str(loader);
        o.str(module);
        o.str(ver);
        o.str(e.getClassName());
        o.str(e.getMethodName());
        o.str(e.getFileName());
        o.i32(e.getLineNumber());
    }
}
