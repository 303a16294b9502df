/**
 * Plugs the video capture into the studio (renderer/app/capturedVideo.ts) when the shell starts; the
 * panel, the pose model's glue and shared/capture load with the first video, not with the page.
 */
import { videoCapture } from '../app/capturedVideo';

videoCapture.capturer = {
  capture: async (name, bytes, messages) => (await import('./capturePanel')).createVideoCapturer().capture(name, bytes, messages),
};
