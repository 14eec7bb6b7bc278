// The environment the stack gives the API function (infra/lib/stack.ts), as the infra tests that
// build its deps outside AWS stub it: names of buckets, functions and the table, and the SDK's region
// and dummy credentials (aws-sdk-client-mock or dynalite answers every call).
export function apiLambdaEnv(table: string): Record<string, string> {
  return {
    APP_SECRET_ARN: "arn:aws:secretsmanager:eu-central-1:123456789012:secret:app",
    READINGS_QUEUE_URL: "https://sqs.eu-central-1.amazonaws.com/123456789012/TelemetryQueue",
    TABLE_NAME: table,
    UPLOADS_BUCKET: "up",
    DOCUMENTS_BUCKET: "doc",
    EXPORTS_BUCKET: "exp",
    SPREADSHEET_FUNCTION_NAME: "spreadsheets",
    EXPORT_JOB_FUNCTION_NAME: "export-jobs",
    VERSION_SIGNING_KEY_IDS: "key-1",
    AWS_REGION: "eu-central-1",
    AWS_ACCESS_KEY_ID: "test",
    AWS_SECRET_ACCESS_KEY: "test",
  };
}
