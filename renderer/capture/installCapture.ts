/**
 * Plugs the video capture into the studio (renderer/app/capturedVideo.ts) when the shell starts; the
 * panels, the pose model's glue and shared/capture load with the first video or recording, not with the page.
 */
import { videoCapture } from '../app/capturedVideo';

videoCapture.capturer = {
  capture: async (name, bytes, messages, details) => (await import('./capturePanel')).createVideoCapturer().capture(name, bytes, messages, details),
  record: async (messages) => (await import('./webcamPanel')).recordWebcam(messages),
};
