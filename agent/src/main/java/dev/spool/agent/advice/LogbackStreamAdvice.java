package dev.spool.agent.advice;

import dev.spool.bridge.Hooks;
import java.io.OutputStream;
import net.bytebuddy.asm.Advice;

/**
 * Woven into Logback's {@code OutputStreamAppender.setOutputStream(OutputStream)}: a file
 * appender's stream is replaced by the sink's stream (encoding, rolling and the file stay
 * Logback's).
 */
public final class LogbackStreamAdvice {

    private LogbackStreamAdvice() {}

    @Advice.OnMethodEnter
    public static void enter(@Advice.This Object appender,
                             @Advice.Argument(value = 0, readOnly = false) OutputStream out) {
        try {
            out = Hooks.wrapLogStream("logback", appender, out);
        } catch (Throwable ignored) {
            // the bridge is unavailable: the appender writes its file itself
        }
    }
}
