package dev.spool.agent.internal;

/**
 * Names of the host's classes the agent instruments. They are written with ':' and converted at
 * run time so that shading (which relocates string constants that look like Jackson or ByteBuddy
 * names) cannot rewrite them to Spool's relocated copies.
 */
final class HostNames {

    static final String OBJECT_MAPPER = of("com:fasterxml:jackson:databind:ObjectMapper");
    static final String OBJECT_WRITER = of("com:fasterxml:jackson:databind:ObjectWriter");
    static final String OBJECT_READER = of("com:fasterxml:jackson:databind:ObjectReader");
    static final String LOGBACK_OUTPUT_STREAM_APPENDER = of("ch:qos:logback:core:OutputStreamAppender");
    static final String LOGBACK_ROLLING_APPENDER = of("ch:qos:logback:core:rolling:RollingFileAppender");
    static final String LOGBACK_TIME_TRIGGER_BASE = of("ch:qos:logback:core:rolling:TimeBasedFileNamingAndTriggeringPolicyBase");
    static final String JUL_FILE_HANDLER = "java.util.logging.FileHandler";
    static final String JUL_METERED_STREAM = "java.util.logging.FileHandler$MeteredStream";
    static final String JUL_STREAM_HANDLER = "java.util.logging.StreamHandler";

    private HostNames() {}

    static String of(String colonSeparated) {
        return colonSeparated.replace(':', '.');
    }
}
