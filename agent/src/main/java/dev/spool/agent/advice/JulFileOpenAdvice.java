package dev.spool.agent.advice;

import dev.spool.bridge.Hooks;
import java.io.File;
import net.bytebuddy.asm.Advice;

/** Woven into {@code java.util.logging.FileHandler.open(File, boolean)}: names the stream about to be created. */
public final class JulFileOpenAdvice {

    private JulFileOpenAdvice() {}

    @Advice.OnMethodEnter
    public static void enter(@Advice.Argument(0) File file) {
        try {
            Hooks.nextStreamName(file == null ? null : file.getPath());
        } catch (Throwable ignored) {
            // the bridge is unavailable: the handler runs as without the agent
        }
    }
}
