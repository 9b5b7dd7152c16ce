package dev.spool.agent.internal;

import java.lang.reflect.Method;

/** Reflection on the host's Logback: which appenders write files, and which file. */
final class LogbackFiles {

    private LogbackFiles() {}

    static boolean isFileAppender(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            if (c.getName().equals(HostNames.LOGBACK_FILE_APPENDER)) {
                return true;
            }
        }
        return false;
    }

    static String fileOf(Object appender) {
        try {
            Method getFile = appender.getClass().getMethod("getFile");
            Object file = getFile.invoke(appender);
            return file == null ? null : file.toString();
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
