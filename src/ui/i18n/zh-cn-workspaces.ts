// The Simplified Chinese dictionary, part: workspaces, as en-workspaces.ts. zh-cn.ts joins the parts.
import type { enWorkspaces } from "./en-workspaces.ts";

export const zhCNWorkspaces: { readonly [K in keyof typeof enWorkspaces]: string } = {
  "workspace.label": "工作区",
  "workspace.using": "正在使用 {{ server }} 上的 {{ model }}。此工作区的对话保存在该服务器上。",
  "workspace.usingServerModel": "正在使用 {{ server }} 运行其智能体的模型。此工作区的对话保存在该服务器上。",
  "workspace.thisBrowser": "此浏览器",
  "workspace.notOpened": "无法打开 {{ name }}：{{ error }} 现在显示此浏览器中的对话。",
  "workspace.uploadsOff": "{{ name }} 不支持上传文件。",
  "workspace.copyTo": "复制到…",
  "workspace.copying": "正在把对话复制到 {{ name }}…",
  "workspace.copied": "已复制到 {{ name }}。",
  "workspace.openCopy": "打开副本",
  "workspace.notCopied": "未能复制到 {{ name }}：{{ error }}",
};
