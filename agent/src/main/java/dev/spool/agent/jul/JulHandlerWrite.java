package dev.spool.agent.jul;

import java.io.OutputStream;
import java.io.Writer;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.util.logging.ErrorManager;
import java.util.logging.FileHandler;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.StreamHandler;

/**
 * What {@code FileHandler.publish} does with a record after {@code isLoggable} and the format,
 * done by Spool's writer thread with a captured record's text (the record was checked and
 * formatted as of its call: asking the handler's {@code isLoggable} or formatter again, later,
 * would apply a level, filter, formatter or record change made after the call, issue 13). Under
 * the handler's monitor, as the JDK's:
 * <ul>
 *   <li>the head ({@code formatter.getHead(handler)} of the formatter in force at the call) before
 *       a file's first record, then the text, through the handler's {@code Writer} (or its bytes
 *       into the handler's meter, {@link JulDirectWrite}); a failure goes to the handler's
 *       {@code reportError(null, e, WRITE_FAILURE)};
 *   <li>Java 17's {@code FileHandler.publish}: then {@code flush()} and, when the meter reached the
 *       limit, {@code rotate()}; Java 21+ ({@code StreamHandler.synchronousPostWriteHook}, which
 *       {@code FileHandler} overrides with the same two steps): that hook, inside the write's
 *       {@code try};
 *   <li>a handler without a {@code Writer} (closed) writes nothing, as its {@code isLoggable} says.
 * </ul>
 * The private fields and methods are {@code java.util.logging}'s, reached once the package is
 * opened to Spool ({@link JulPrivateAccess}); {@link #open} answers null on a JDK without one of
 * them (then nothing is captured). Immutable, thread-safe; {@link #write} on a log's drainer only.
 */
final class JulHandlerWrite {

    final VarHandle output;
    final VarHandle writer;
    final VarHandle doneHeader;
    /** {@code FileHandler$MeteredStream.out}: the stream under the meter. */
    final VarHandle meterOut;
    private final VarHandle meter;
    private final VarHandle written;
    private final VarHandle limit;
    /** {@code FileHandler.append}, or null when this JDK has no such field. */
    private final VarHandle append;
    /** {@code FileHandler.files} (its generations' files), or null when this JDK has no such field. */
    private final VarHandle generations;
    private final MethodHandle rotate;
    /** Java 21+: {@code StreamHandler.synchronousPostWriteHook()} (null: Java 17's shape). */
    private final MethodHandle postWriteHook;
    private final MethodHandle reportError;

    private JulHandlerWrite(MethodHandles.Lookup lookup) throws ReflectiveOperationException {
        MethodHandles.Lookup streams = MethodHandles.privateLookupIn(StreamHandler.class, lookup);
        output = streams.findVarHandle(StreamHandler.class, "output", OutputStream.class);
        writer = streams.findVarHandle(StreamHandler.class, "writer", Writer.class);
        doneHeader = streams.findVarHandle(StreamHandler.class, "doneHeader", boolean.class);
        Class<?> meterType = Class.forName(JulDirectWrite.METER, false, StreamHandler.class.getClassLoader());
        MethodHandles.Lookup meters = MethodHandles.privateLookupIn(meterType, lookup);
        meterOut = meters.findVarHandle(meterType, "out", OutputStream.class);
        written = meters.findVarHandle(meterType, "written", long.class);
        MethodHandles.Lookup files = MethodHandles.privateLookupIn(FileHandler.class, lookup);
        meter = files.findVarHandle(FileHandler.class, "meter", meterType);
        limit = files.findVarHandle(FileHandler.class, "limit", long.class);
        VarHandle appends;
        try {
            appends = files.findVarHandle(FileHandler.class, "append", boolean.class);
        } catch (NoSuchFieldException e) {
            appends = null; // only a journal's recovery asks (issue 33): it then puts an empty file's lines beside it
        }
        append = appends;
        VarHandle files0;
        try {
            files0 = files.findVarHandle(FileHandler.class, "files", java.io.File[].class);
        } catch (NoSuchFieldException e) {
            files0 = null; // only a journal's recovery asks (issue 33)
        }
        generations = files0;
        rotate = files.findVirtual(FileHandler.class, "rotate", MethodType.methodType(void.class))
                .asType(MethodType.methodType(void.class, FileHandler.class));
        MethodHandle hook;
        try {
            hook = streams.findVirtual(StreamHandler.class, "synchronousPostWriteHook", MethodType.methodType(void.class));
        } catch (NoSuchMethodException e) {
            hook = null; // Java 17: FileHandler.publish flushes and rotates after StreamHandler.publish
        }
        postWriteHook = hook;
        reportError = MethodHandles.privateLookupIn(Handler.class, lookup).findVirtual(Handler.class, "reportError",
                MethodType.methodType(void.class, String.class, Exception.class, int.class));
    }

    /** The handles, or null with the reason given to {@code why}. */
    static JulHandlerWrite open(StringBuilder why) {
        try {
            return new JulHandlerWrite(MethodHandles.lookup());
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            why.append(e);
            return null;
        }
    }

    /**
     * Writes {@code text} (formatted by {@code formatter}'s equal, as of the call) into
     * {@code handler} as its {@code publish} would; the caller holds the handler's monitor.
     */
    void write(FileHandler handler, Formatter formatter, String text, JulDirectWrite direct) {
        Writer w = (Writer) writer.get(handler);
        if (w == null) {
            return; // closed: StreamHandler.isLoggable is false without a Writer
        }
        try {
            if (!(boolean) doneHeader.get(handler)) {
                w.write(formatter.getHead(handler));
                doneHeader.set(handler, true);
                w.write(text); // a file's first record follows its head through the Writer
                direct.wroteThroughWriter(text); // which may now hold a high surrogate for its next write
            } else {
                String rest = direct.serve(handler, text); // "" once its bytes are in the meter
                if (!rest.isEmpty()) {
                    w.write(rest);
                }
            }
            if (postWriteHook != null) {
                postWriteHook.invoke((StreamHandler) handler);
            }
        } catch (Exception e) {
            reportError(handler, e, ErrorManager.WRITE_FAILURE);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (postWriteHook == null) {
            afterPublish(handler);
        }
    }

    /**
     * Whether the handler, opening its file now, opens it to append; null when unknown. Its
     * {@code append} setting applies to its first open only (its construction: no meter yet); a
     * rotation opens the next file with {@code append=false} while the old meter is still set.
     */
    Boolean appends(FileHandler handler) {
        return append == null ? null : (boolean) append.get(handler) && meter.get(handler) == null;
    }

    /** The handler's generation-1 file (where a rotation moves generation 0), or null: it does not rotate, or unknown. */
    java.nio.file.Path generationOne(FileHandler handler) {
        java.io.File[] f = generations == null ? null : (java.io.File[]) generations.get(handler);
        return f == null || f.length < 2 || f[1] == null ? null : f[1].toPath().toAbsolutePath();
    }

    /** The stream under the handler's byte meter (Spool's routed stream when routed), or null. */
    Object underMeter(FileHandler handler) {
        Object out = output.get((StreamHandler) handler);
        return out != null && out.getClass().getName().equals(JulDirectWrite.METER) ? meterOut.get(out) : null;
    }

    /** The handler's {@code Writer} (null once closed). */
    Writer writer(FileHandler handler) {
        return (Writer) writer.get((StreamHandler) handler);
    }

    /**
     * A record whose text could not be made: the handler's {@code reportError(null, e, FORMAT_FAILURE)},
     * and on Java 17 the flush and limit check that follow {@code StreamHandler.publish} anyway.
     */
    void formatFailed(FileHandler handler, Exception e) {
        reportError(handler, e, ErrorManager.FORMAT_FAILURE);
        if (postWriteHook == null) {
            afterPublish(handler);
        }
    }

    /** Java 17's {@code FileHandler.publish} after {@code super.publish}: flush, then rotate at the limit. */
    private void afterPublish(FileHandler handler) {
        handler.flush();
        long max = (long) limit.get(handler);
        Object m = meter.get(handler);
        if (max > 0 && m != null) {
            long w = (long) written.get(m);
            if (w >= max || w < 0) {
                try {
                    rotate.invokeExact(handler);
                } catch (Throwable t) {
                    throw rethrow(t);
                }
            }
        }
    }

    private void reportError(Handler handler, Exception e, int code) {
        try {
            reportError.invoke(handler, (String) null, e, code);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error err) {
            throw err;
        }
        throw new IllegalStateException(t);
    }
}
