package dev.spool.agent.internal;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Calls into the host's own Jackson (whatever 2.x version it ships) by reflection on the
 * caller's mapper, reader or writer: {@code writeValue(OutputStream, Object)} to encode a write
 * at the call, and the {@code byte[]} twin of an intercepted file read ({@code readValue(byte[], T)},
 * {@code readTree(byte[])}). Lookups are cached per class. Thread-safe.
 */
final class JacksonCalls {

    /** Thrown when the host's Jackson has no usable method; the caller falls back. */
    static final class Unsupported extends Exception {
        private static final long serialVersionUID = 1L;

        Unsupported(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * What the host's {@code writeValue(OutputStream, value)} threw, with what it had written to the
     * stream before (Jackson closes its generator on a failure, flushing what it was given): the
     * content the host's own {@code writeValue(File, value)} leaves in the file with that exception.
     */
    static final class WriteFailed extends Exception {
        private static final long serialVersionUID = 1L;
        final transient byte[] written;
        final Exception thrown;

        WriteFailed(byte[] written, Exception thrown) {
            super(null, null, false, false);
            this.written = written;
            this.thrown = thrown;
        }
    }

    private final ClassValue<Method> streamWriters = new ClassValue<>() {
        @Override
        protected Method computeValue(Class<?> type) {
            try {
                return type.getMethod("writeValue", java.io.OutputStream.class, Object.class);
            } catch (NoSuchMethodException e) {
                return NONE;
            }
        }
    };

    /**
     * {@code writer.writeValue(OutputStream, value)} into memory: the bytes of the host's own
     * {@code writeValue(File, value)} (the same generator and the same write-and-close), its
     * serializers run once. On their failure, {@link WriteFailed} carries what the file would hold.
     */
    byte[] encodeAtCall(Object writer, Object value) throws WriteFailed, Unsupported {
        Method m = streamWriters.get(writer.getClass());
        if (m == NONE) {
            throw new Unsupported("no writeValue(OutputStream, Object) on " + writer.getClass().getName());
        }
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        try {
            m.invoke(writer, out, value);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Error error) {
                throw error;
            }
            throw new WriteFailed(out.toByteArray(), cause instanceof Exception ex ? ex : new IOException(cause));
        } catch (IllegalAccessException e) {
            throw new Unsupported(e.toString());
        }
        return out.toByteArray();
    }

    private final ClassValue<Map<String, Method>> readers = new ClassValue<>() {
        @Override
        protected Map<String, Method> computeValue(Class<?> type) {
            return new ConcurrentHashMap<>();
        }
    };

    /** Per reader class: its {@code _valueToUpdate} field (an {@code ObjectReader}'s), or null. */
    private final ClassValue<java.lang.reflect.Field> updateTargets = new ClassValue<>() {
        @Override
        protected java.lang.reflect.Field computeValue(Class<?> type) {
            for (Class<?> c = type; c != null; c = c.getSuperclass()) {
                try {
                    java.lang.reflect.Field f = c.getDeclaredField("_valueToUpdate");
                    f.setAccessible(true);
                    return f;
                } catch (NoSuchFieldException | RuntimeException e) {
                    // not here (or not accessible: a Jackson in a named module); look further up
                }
            }
            return null;
        }
    };

    /**
     * Whether {@code reader} reads into an existing object ({@code readerForUpdating(obj)}): such a
     * read changes that object as it goes, so it must run exactly once (a read that failed half-way
     * and ran again would apply its first half twice: a {@code @JsonMerge} list grows twice).
     */
    boolean updatesInPlace(Object reader) {
        java.lang.reflect.Field f = updateTargets.get(reader.getClass());
        try {
            return f != null && f.get(reader) != null;
        } catch (IllegalAccessException e) {
            return false;
        }
    }

    Object read(Object reader, String method, byte[] content, Object type) throws IOException, Unsupported {
        Class<?> typeClass = type == null ? null : type.getClass();
        String key = method + '#' + (typeClass == null ? "" : typeClass.getName());
        Method m = readers.get(reader.getClass()).computeIfAbsent(key, k -> findReader(reader.getClass(), method, type));
        if (m == NONE) {
            throw new Unsupported("no " + method + "(byte[]" + (type == null ? "" : ", " + typeClass.getName())
                    + ") on " + reader.getClass().getName());
        }
        return type == null ? invoke(m, reader, content) : invoke(m, reader, content, type);
    }

    private static Object invoke(Method m, Object target, Object... args) throws IOException, Unsupported {
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException) {
                throw (IOException) cause;
            }
            if (cause instanceof RuntimeException) {
                throw (RuntimeException) cause;
            }
            if (cause instanceof Error) {
                throw (Error) cause;
            }
            throw new Unsupported(String.valueOf(cause));
        } catch (IllegalAccessException e) {
            throw new Unsupported(e.toString());
        }
    }

    private static final Method NONE;

    static {
        try {
            NONE = Object.class.getMethod("toString");
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static Method findReader(Class<?> cls, String name, Object type) {
        for (Method m : cls.getMethods()) {
            Class<?>[] p = m.getParameterTypes();
            if (!m.getName().equals(name) || p.length == 0 || p[0] != byte[].class) {
                continue;
            }
            if (type == null ? p.length == 1 : p.length == 2 && p[1].isInstance(type)) {
                return m;
            }
        }
        return NONE;
    }
}
