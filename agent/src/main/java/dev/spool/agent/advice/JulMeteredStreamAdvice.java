package dev.spool.agent.advice;

import dev.spool.bridge.Hooks;
import java.io.OutputStream;
import net.bytebuddy.asm.Advice;

/**
 * Woven into the constructor of {@code java.util.logging.FileHandler$MeteredStream}: the file
 * stream under the meter is replaced by the sink's stream. The meter still counts every byte on
 * the logging thread, so {@code FileHandler} rotates at exactly the same record as without the
 * agent; rotation closes the meter, which drains the sink into the old file before the next opens.
 */
public final class JulMeteredStreamAdvice {

    private JulMeteredStreamAdvice() {}

    @Advice.OnMethodEnter
    public static void enter(@Advice.Argument(value = 0, readOnly = false) OutputStream out) {
        try {
            out = Hooks.wrapLogStream("jul", null, out);
        } catch (Throwable ignored) {
            // the bridge is unavailable: the handler writes its file itself
        }
    }
}
