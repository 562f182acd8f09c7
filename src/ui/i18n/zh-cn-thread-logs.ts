// The Simplified Chinese dictionary, part: every key of en-thread-logs.ts (Thread actions → "Uploads" and "Sandbox
// log"). zh-cn.ts joins the parts; its terms are listed there.
import type { enThreadLogs } from "./en-thread-logs.ts";

export const zhCNThreadLogs: { readonly [K in keyof typeof enThreadLogs]: string } = {
  "uploads.title": "已上传的文件",
  "uploads.intro": "附在这个对话消息里的文件。智能体在 /mnt/user-data/uploads 中读取它们。",
  "uploads.list": "已上传的文件",
  "uploads.loading": "正在读取已上传的文件…",
  "uploads.none": "这个对话没有上传的文件。",
  "uploads.markdown": "另有 Markdown 版本：{{ name }}",
  "uploads.download": "下载 {{ name }}",
  "uploads.delete": "删除 {{ name }}",
  "uploads.confirmTitle": "删除上传的文件？",
  "uploads.confirmText": "{{ name }} 将从这个对话中删除。提到它的消息保持不变。",
  "uploads.confirmTextMarkdown":
    "{{ name }} 及其 Markdown 版本 {{ markdown }} 将从这个对话中删除。提到它们的消息保持不变。",
  "uploads.deleted": "已删除 {{ name }}。",
  "threadLogs.close": "关闭",
  "sandboxLog.title": "沙箱日志",
  "sandboxLog.intro":
    "智能体在这个对话的沙箱中运行过的每条命令，按时间先后排列，并列出每条命令改动的文件。你自己在终端里运行的命令不在其中。",
  "sandboxLog.table": "沙箱日志",
  "sandboxLog.loading": "正在读取日志…",
  "sandboxLog.none": "智能体还没有在这个对话的沙箱中运行过命令。",
  "sandboxLog.time": "时间",
  "sandboxLog.command": "命令",
  "sandboxLog.exitCode": "退出码",
  "sandboxLog.files": "改动的文件",
  "sandboxLog.noFiles": "无",
  "sandboxLog.cut": "（已截断）",
  "sandboxLog.seconds": "{{ seconds }} 秒",
  "sandboxLog.stopped.timeout": "已停止：运行太久",
  "sandboxLog.stopped.cancelled": "已取消",
  "sandboxLog.stopped.limit": "已停止：超出限制",
  "sandboxLog.notRun": "未运行",
  "sandboxLog.added": "新增 {{ path }}",
  "sandboxLog.modified": "修改 {{ path }}",
  "sandboxLog.deleted": "删除 {{ path }}",
  "sandboxLog.more": "另有 {{ count }} 个",
};
